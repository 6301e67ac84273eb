using System.Globalization;

namespace Managed.Zmq.Perf;

/// <summary>
/// Runs with no arguments: a short benchmark over tcp loopback with both ends in this
/// process, one thread each. Unlike the libzmq-style modes, every scenario first moves a
/// warm-up batch over the same connection so that connection setup and JIT tiering stay
/// out of the timed part.
/// </summary>
internal static class SelfBenchmark
{
    private const string Endpoint = "tcp://127.0.0.1:*";

    // Any single send or receive that blocks this long means the run is broken, not slow.
    private const int TimeoutMilliseconds = 30_000;

    public static int Run()
    {
        Console.WriteLine("Managed.Zmq self-benchmark: tcp loopback, both ends in one process (two threads)");
        Console.WriteLine();
        Console.WriteLine($"{"scenario",-10} {"size [B]",9} {"count",11} {"msg/s",12} {"MB/s",10} {"latency [us]",13}");

        bool ok = true;
        ok &= Row("PUSH/PULL", 64, 1_000_000, latency: false);
        ok &= Row("PUSH/PULL", 1024, 200_000, latency: false);
        ok &= Row("PUSH/PULL", 65536, 10_000, latency: false);
        ok &= Row("REQ/REP", 64, 10_000, latency: true);

        Console.WriteLine();
        Console.WriteLine("msg/s and MB/s (1 MB = 10^6 B) are receive throughput; latency is one-way (roundtrip / 2).");
        return ok ? 0 : 1;
    }

    private static bool Row(string scenario, int size, int count, bool latency)
    {
        string prefix = $"{scenario,-10} {size,9} {Format(count),11}";
        try
        {
            if (latency)
            {
                double microseconds = MeasureLatency(size, count);
                Console.WriteLine($"{prefix} {"-",12} {"-",10} {microseconds.ToString("F3", CultureInfo.InvariantCulture),13}");
            }
            else
            {
                double messagesPerSecond = MeasureThroughput(size, count);
                double megabytesPerSecond = messagesPerSecond * size / 1_000_000;
                Console.WriteLine($"{prefix} {Format(messagesPerSecond),12} {megabytesPerSecond.ToString("F1", CultureInfo.InvariantCulture),10} {"-",13}");
            }

            return true;
        }
        catch (Exception ex) when (ex is ZmqException or InvalidOperationException or ObjectDisposedException)
        {
            Console.WriteLine($"{prefix}   failed: {ex.GetType().Name}: {ex.Message}");
            return false;
        }
    }

    private static double MeasureThroughput(int size, int count)
    {
        int warmup = count / 10;
        using var context = new Context();
        using var pull = new Socket(context, SocketType.Pull);
        pull.SetOption(SocketOption.Rcvtimeo, TimeoutMilliseconds);
        pull.Bind(Endpoint);
        string endpoint = pull.GetOptionString(SocketOption.Last_Endpoint);

        Exception? senderError = null;
        var sender = new Thread(() =>
        {
            try
            {
                using var push = new Socket(context, SocketType.Push);
                push.SetOption(SocketOption.Sndtimeo, TimeoutMilliseconds);
                push.Connect(endpoint);
                ReadOnlySpan<byte> payload = new byte[size];
                for (int i = 0; i != warmup + count; i++)
                {
                    push.Send(payload, SendFlags.None);
                }
            }
            catch (Exception ex)
            {
                senderError = ex;
            }
        })
        {
            IsBackground = true,
            Name = "perf-push",
        };
        sender.Start();

        byte[] buffer = new byte[size + 1];
        for (int i = 0; i != warmup; i++)
        {
            ReceiveExactly(pull, buffer, size);
        }

        long start = PerfClock.Start();
        for (int i = 0; i != count; i++)
        {
            ReceiveExactly(pull, buffer, size);
        }

        long elapsed = Math.Max(1, PerfClock.ElapsedMicroseconds(start));
        sender.Join();
        ThrowIfFailed(senderError);
        return count * 1_000_000.0 / elapsed;
    }

    private static double MeasureLatency(int size, int count)
    {
        int warmup = count / 10;
        using var context = new Context();
        using var rep = new Socket(context, SocketType.Rep);
        rep.SetOption(SocketOption.Rcvtimeo, TimeoutMilliseconds);
        rep.SetOption(SocketOption.Sndtimeo, TimeoutMilliseconds);
        rep.Bind(Endpoint);
        string endpoint = rep.GetOptionString(SocketOption.Last_Endpoint);

        // The REP socket moves to the echo thread; Thread.Start/Join order every use of it.
        Exception? echoError = null;
        var echo = new Thread(() =>
        {
            try
            {
                byte[] echoBuffer = new byte[size + 1];
                ReadOnlySpan<byte> reply = echoBuffer.AsSpan(0, size);
                for (int i = 0; i != warmup + count; i++)
                {
                    ReceiveExactly(rep, echoBuffer, size);
                    rep.Send(reply, SendFlags.None);
                }
            }
            catch (Exception ex)
            {
                echoError = ex;
            }
        })
        {
            IsBackground = true,
            Name = "perf-rep",
        };
        echo.Start();

        using var req = new Socket(context, SocketType.Req);
        req.SetOption(SocketOption.Rcvtimeo, TimeoutMilliseconds);
        req.SetOption(SocketOption.Sndtimeo, TimeoutMilliseconds);
        req.Connect(endpoint);

        byte[] buffer = new byte[size + 1];
        ReadOnlySpan<byte> request = buffer.AsSpan(0, size);
        for (int i = 0; i != warmup; i++)
        {
            req.Send(request, SendFlags.None);
            ReceiveExactly(req, buffer, size);
        }

        long start = PerfClock.Start();
        for (int i = 0; i != count; i++)
        {
            req.Send(request, SendFlags.None);
            ReceiveExactly(req, buffer, size);
        }

        long elapsed = PerfClock.ElapsedMicroseconds(start);
        echo.Join();
        ThrowIfFailed(echoError);
        return PerfReport.Latency(count, elapsed);
    }

    private static void ReceiveExactly(Socket socket, byte[] buffer, int size)
    {
        int received = socket.Recv(buffer.AsSpan(), RecvFlags.None);
        if (received != size)
        {
            throw new InvalidOperationException($"message of incorrect size received ({received} B, expected {size} B)");
        }
    }

    private static void ThrowIfFailed(Exception? peerError)
    {
        if (peerError is not null)
        {
            throw new InvalidOperationException($"peer thread failed: {peerError.Message}", peerError);
        }
    }

    private static string Format(double value) => value.ToString("N0", CultureInfo.InvariantCulture);
}
