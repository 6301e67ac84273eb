using System.Net;
using System.Net.Sockets;
using System.Threading.Channels;
using TcpSocket = System.Net.Sockets.Socket;
using TcpSocketType = System.Net.Sockets.SocketType;

namespace Managed.Zmq.NetNode;

/// <summary>
/// A TCP proxy that can add latency, cap bandwidth, and cut both directions of every connection
/// without sending FIN or RST (a partition: bytes stop, the kernel keeps both TCP connections
/// alive, nothing is lost, so a ZMTP heartbeat is the only thing that can notice). A close seen
/// during a partition is held back until the partition heals, as a real network would.
/// </summary>
public sealed class FaultProxy : IDisposable
{
    /// <summary>Bytes read per chunk; also the granularity of delay and rate limiting.</summary>
    private const int ChunkBytes = 16 * 1024;

    /// <summary>Chunks held per direction before the reader stops reading (back-pressure to the sender).</summary>
    private const int QueuedChunks = 16;

    private readonly TcpSocket _listener;
    private readonly IPEndPoint _target;
    private readonly Gate _flowing = new();
    private readonly CancellationTokenSource _stop = new();
    private long _connections;
    private long _bytesForward;
    private long _bytesBackward;

    public FaultProxy(int listenPort, IPEndPoint target)
    {
        _target = target;
        _listener = new TcpSocket(AddressFamily.InterNetwork, TcpSocketType.Stream, ProtocolType.Tcp);
        _listener.SetSocketOption(SocketOptionLevel.Socket, SocketOptionName.ReuseAddress, true);
        _listener.Bind(new IPEndPoint(IPAddress.Any, listenPort));
        _listener.Listen(64);
        _ = AcceptLoop();
    }

    /// <summary>One-way latency added to every chunk, in each direction.</summary>
    public int DelayMilliseconds { get; set; }

    /// <summary>Bandwidth cap per direction of each connection; 0 = none.</summary>
    public long BytesPerSecond { get; set; }

    public void Partition() => _flowing.Close();

    public void Heal() => _flowing.Open();

    public string Stats() =>
        $"conns={Interlocked.Read(ref _connections)} fwd={Interlocked.Read(ref _bytesForward)} back={Interlocked.Read(ref _bytesBackward)}";

    private async Task AcceptLoop()
    {
        while (!_stop.IsCancellationRequested)
        {
            TcpSocket client;
            try
            {
                client = await _listener.AcceptAsync(_stop.Token);
            }
            catch (Exception) when (_stop.IsCancellationRequested)
            {
                return;
            }

            _ = Serve(client);
        }
    }

    private async Task Serve(TcpSocket client)
    {
        using (client)
        using (var server = new TcpSocket(AddressFamily.InterNetwork, TcpSocketType.Stream, ProtocolType.Tcp))
        {
            client.NoDelay = true;
            server.NoDelay = true;
            try
            {
                // A connect during a partition waits for the heal, like a SYN that gets no answer.
                await _flowing.WaitOpenAsync();
                await server.ConnectAsync(_target, _stop.Token);
            }
            catch (Exception)
            {
                client.LingerState = new LingerOption(true, 0); // refused: reset, as the target would
                return;
            }

            Interlocked.Increment(ref _connections);
            await Task.WhenAll(Relay(client, server, forward: true), Relay(server, client, forward: false));
        }
    }

    private async Task Relay(TcpSocket from, TcpSocket to, bool forward)
    {
        var chunks = Channel.CreateBounded<(long Due, byte[] Data, int Length)>(QueuedChunks);
        var reading = Read(from, chunks.Writer);
        try
        {
            long nextFree = Environment.TickCount64;
            await foreach (var (due, data, length) in chunks.Reader.ReadAllAsync(_stop.Token))
            {
                await _flowing.WaitOpenAsync();
                long wait = due - Environment.TickCount64;
                if (wait > 0)
                {
                    await Task.Delay((int)wait, _stop.Token);
                }

                long rate = BytesPerSecond;
                if (rate > 0)
                {
                    long now = Environment.TickCount64;
                    nextFree = Math.Max(nextFree, now);
                    if (nextFree > now)
                    {
                        await Task.Delay((int)(nextFree - now), _stop.Token);
                    }

                    nextFree += length * 1000L / rate;
                }

                await _flowing.WaitOpenAsync();
                await to.SendAsync(data.AsMemory(0, length), SocketFlags.None, _stop.Token);
                Interlocked.Add(ref forward ? ref _bytesForward : ref _bytesBackward, length);
            }

            to.Shutdown(SocketShutdown.Send);
        }
        catch (Exception)
        {
            // One side failed or the proxy stops: end this direction; the peer sees the close.
        }

        await reading;
    }

    private async Task Read(TcpSocket from, ChannelWriter<(long, byte[], int)> chunks)
    {
        try
        {
            while (true)
            {
                await _flowing.WaitOpenAsync();
                byte[] buffer = new byte[ChunkBytes];
                int n = await from.ReceiveAsync(buffer, SocketFlags.None, _stop.Token);
                if (n == 0)
                {
                    break;
                }

                long due = Environment.TickCount64 + DelayMilliseconds;
                await chunks.WriteAsync((due, buffer, n), _stop.Token);
            }
        }
        catch (Exception)
        {
            // Reset or proxy stopping: end this direction.
        }

        // A close during a partition reaches the other side only once the partition heals.
        await _flowing.WaitOpenAsync();
        chunks.TryComplete();
    }

    public void Dispose()
    {
        _stop.Cancel();
        _listener.Dispose();
    }
}
