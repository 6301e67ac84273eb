using System.Net;
using System.Net.Sockets;

namespace Managed.Zmq.Transports;

/// <summary>
/// <see cref="IByteTransport"/> over a connected <see cref="System.Net.Sockets.Socket"/>.
/// The Memory overloads of SendAsync/ReceiveAsync reuse a cached awaitable event-args per socket,
/// so steady-state I/O allocates nothing.
/// </summary>
internal sealed class SocketByteTransport : IByteTransport
{
    private readonly System.Net.Sockets.Socket _socket;

    public SocketByteTransport(System.Net.Sockets.Socket socket)
    {
        _socket = socket;
        PeerAddress = socket.RemoteEndPoint is IPEndPoint ip ? ip.Address.ToString() : string.Empty;
        Handle = (int)socket.Handle;
    }

    public string PeerAddress { get; }

    public int Handle { get; }

    public ValueTask<int> ReceiveAsync(Memory<byte> buffer) => _socket.ReceiveAsync(buffer, SocketFlags.None);

    [System.Runtime.CompilerServices.AsyncMethodBuilder(typeof(System.Runtime.CompilerServices.PoolingAsyncValueTaskMethodBuilder))]
    public async ValueTask SendAsync(ReadOnlyMemory<byte> data)
    {
        while (!data.IsEmpty)
        {
            int sent = await _socket.SendAsync(data, SocketFlags.None).ConfigureAwait(true);
            if (sent <= 0)
            {
                throw new SocketException((int)SocketError.ConnectionReset);
            }

            data = data.Slice(sent);
        }
    }

    public void Dispose()
    {
        try
        {
            _socket.Shutdown(SocketShutdown.Both);
        }
        catch (SocketException)
        {
            // Already reset by the peer: closing is all that is left to do.
        }
        catch (ObjectDisposedException)
        {
        }

        _socket.Dispose();
    }
}
