using System.Net;
using System.Net.Sockets;

namespace Managed.Zmq.Transports;

/// <summary>A parsed tcp:// or ipc:// endpoint, able to make the OS socket that serves it.</summary>
internal abstract class TransportAddress
{
    /// <summary>The endpoint as given by the user.</summary>
    public required string Original { get; init; }

    public abstract AddressFamily AddressFamily { get; }

    public abstract ProtocolType ProtocolType { get; }

    /// <summary>Resolves to the OS endpoint (DNS for tcp connects; may be slow, so only on I/O threads).</summary>
    public abstract ValueTask<EndPoint> ResolveAsync(CancellationToken cancellationToken);

    /// <summary>The local endpoint to bind; binds resolve names when parsed, so this never blocks.</summary>
    public abstract EndPoint GetBindEndPoint();

    /// <summary>The <c>Last_Endpoint</c> text for a listener bound to <paramref name="boundEndPoint"/>.</summary>
    public abstract string FormatBound(EndPoint boundEndPoint);

    /// <summary>
    /// Takes what this endpoint needs from the socket's options when Bind or Connect is called (wss://: its
    /// certificates); 0, or the errno Bind or Connect fails with.
    /// </summary>
    public virtual int Prepare(Options.SocketOptions options, bool forBind) => 0;

    /// <summary>
    /// The byte stream the ZMTP engine runs over, given the connected OS socket's: the same for tcp://
    /// and ipc://; ws:// puts its WebSocket upgrade and framing in between.
    /// </summary>
    public virtual IByteTransport Wrap(IByteTransport connected, bool connecting, Options.SocketOptions options) => connected;

    public System.Net.Sockets.Socket CreateSocket(AddressFamily family) => new(family, System.Net.Sockets.SocketType.Stream, ProtocolType);
}
