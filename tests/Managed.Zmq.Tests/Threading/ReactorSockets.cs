using System.Net;
using System.Net.Sockets;
using Managed.Zmq.Threading;

namespace Managed.Zmq.Tests.Threading;

/// <summary>Connected loopback TCP pairs and a recording handler for driving an <see cref="IoThread"/> directly.</summary>
internal static class ReactorSockets
{
    public static readonly TimeSpan WaitLimit = TimeSpan.FromSeconds(20);

    /// <summary><paramref name="count"/> connected pairs: Client sends, Server is watched (non-blocking).</summary>
    public static List<(System.Net.Sockets.Socket Client, System.Net.Sockets.Socket Server)> Pairs(int count)
    {
        using var listener = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        listener.Listen(count);
        var pairs = new List<(System.Net.Sockets.Socket, System.Net.Sockets.Socket)>(count);
        for (int i = 0; i < count; i++)
        {
            var client = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp);
            client.Connect(listener.LocalEndPoint!);
            var server = listener.Accept();
            server.Blocking = false;
            pairs.Add((client, server));
        }

        return pairs;
    }

    public static void DisposeAll(IEnumerable<(System.Net.Sockets.Socket Client, System.Net.Sockets.Socket Server)> pairs)
    {
        foreach (var (client, server) in pairs)
        {
            client.Dispose();
            server.Dispose();
        }
    }

    /// <summary>Runs <paramref name="action"/> on <paramref name="thread"/> and waits for it.</summary>
    public static void OnThread(IoThread thread, Action action)
    {
        using var done = new ManualResetEventSlim();
        Exception? failure = null;
        thread.Schedule(_ =>
        {
            try
            {
                action();
            }
            catch (Exception ex)
            {
                failure = ex;
            }
            finally
            {
                done.Set();
            }
        }, null);
        Assert.True(done.Wait(WaitLimit), "the I/O thread did not run the action");
        Assert.Null(failure);
    }

    /// <summary>Waits (with a limit) until <paramref name="condition"/> holds.</summary>
    public static void Until(Func<bool> condition, string what) => Assert.True(SpinWait.SpinUntil(condition, WaitLimit), what);
}

/// <summary>Counts readiness calls, reads what arrived (so the socket goes quiet again), and can throw.</summary>
internal sealed class RecordingHandler(System.Net.Sockets.Socket socket, bool throwOnReadable = false) : IReadinessHandler
{
    private readonly byte[] _buffer = new byte[256];
    private int _readable;
    private int _writable;

    public System.Net.Sockets.Socket Socket { get; } = socket;

    public int Readable => Volatile.Read(ref _readable);

    public int Writable => Volatile.Read(ref _writable);

    public SemaphoreSlim ReadableSignal { get; } = new(0);

    public ManualResetEventSlim Faulted { get; } = new();

    public void OnReadable()
    {
        Interlocked.Increment(ref _readable);
        if (throwOnReadable)
        {
            throw new InvalidOperationException("a handler bug, on purpose");
        }

        try
        {
            Socket.Receive(_buffer, SocketFlags.None, out _);
        }
        catch (ObjectDisposedException)
        {
            // The test closed its sockets while the reactor still reported one: not a handler bug. Thrown,
            // it would count as an internal error of the process and fail the guards of tests running beside.
        }

        ReadableSignal.Release();
    }

    public void OnWritable() => Interlocked.Increment(ref _writable);

    public void OnFault(Exception exception) => Faulted.Set();
}
