using Managed.Zmq.Inproc;
using Managed.Zmq.Security.Zap;
using Managed.Zmq.Sockets;
using Managed.Zmq.Threading;

namespace Managed.Zmq;

/// <summary>The context as its sockets see it (<see cref="ISocketContext"/>).</summary>
public sealed partial class Context : ISocketContext
{
    InprocRegistry ISocketContext.Inproc => Inproc;

    bool ISocketContext.Ipv6Default => Ipv6Default;

    int ISocketContext.IoThreadCount => IoThreadCount;

    IZapEndpoint ISocketContext.Zap => Zap;

    IoThread ISocketContext.NextIoThread(long affinity) => NextIoThread(affinity);

    void ISocketContext.BeginWork() => BeginWork();

    void ISocketContext.EndWork() => EndWork();

    int ISocketContext.EffectiveLinger(int linger) => EffectiveLinger(linger);

    void ISocketContext.TrackLingering(object lingerer) => TrackLingering(lingerer);

    void ISocketContext.Unregister(SocketCore socket) => Unregister(socket);
}
