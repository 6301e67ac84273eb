namespace Managed.Zmq.Transports.Ws;

/// <summary>
/// What a raw socket (STREAM, or ROUTER with Router_Raw) gets on ws://: a transport that closes the
/// connection at once. Raw bytes have no ZWS framing, and libzmq's raw sockets over ws fail their
/// handshake too, so the connection ends visibly (DISCONNECTED) instead of passing framing as data.
/// </summary>
internal sealed class WsRawRefusal(IByteTransport inner) : IByteTransport
{
    public string PeerAddress => inner.PeerAddress;

    public int Handle => inner.Handle;

    public ValueTask<int> ReceiveAsync(Memory<byte> buffer) =>
        ValueTask.FromException<int>(new IOException("ws: raw sockets (STREAM, Router_Raw) cannot use ws://"));

    public ValueTask SendAsync(ReadOnlyMemory<byte> data) =>
        ValueTask.FromException(new IOException("ws: raw sockets (STREAM, Router_Raw) cannot use ws://"));

    public void Dispose() => inner.Dispose();
}
