using Managed.Zmq.Inproc;
using Managed.Zmq.Security.Zap;
using Managed.Zmq.Threading;

namespace Managed.Zmq.Sockets;

/// <summary>
/// The context as its sockets see it: the shared inproc names, I/O threads, ZAP, the count of work
/// in flight and what may still linger. <see cref="Context"/> implements it, so the socket layer
/// names no public class above it.
/// </summary>
internal interface ISocketContext
{
    /// <summary>The inproc endpoint names of this context.</summary>
    InprocRegistry Inproc { get; }

    /// <summary>The context's IPv6 option, the default of a new socket's.</summary>
    bool Ipv6Default { get; }

    /// <summary>I/O threads configured (0: inproc only).</summary>
    int IoThreadCount { get; }

    /// <summary>Where this context's connections send their ZAP requests (RFC 27).</summary>
    IZapEndpoint Zap { get; }

    /// <summary>The I/O thread for new work, by a socket's Affinity option.</summary>
    IoThread NextIoThread(long affinity);

    /// <summary>Work in flight (connections, connecters) that Terminate waits for.</summary>
    void BeginWork();

    void EndWork();

    /// <summary>A socket's LINGER as the context's state makes it (Terminate may have cut it short).</summary>
    int EffectiveLinger(int linger);

    /// <summary>A closed socket's connecter or connection that may still linger.</summary>
    void TrackLingering(object lingerer);

    /// <summary>The socket closed: the context stops tracking it.</summary>
    void Unregister(SocketCore socket);
}
