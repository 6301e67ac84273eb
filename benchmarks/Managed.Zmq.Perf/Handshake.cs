using System.Globalization;

namespace Managed.Zmq.Perf;

/// <summary>
/// <c>handshake &lt;message-size&gt; &lt;connection-count&gt;</c>, the twin of
/// benchmarks/native/handshake.c: one process, a PULL binds to <c>tcp://127.0.0.1:*</c> (the
/// CURVE server with <c>PERF_CURVE=1</c>), then connection-count times in a row a fresh PUSH
/// (the CURVE client) connects, sends one message and is closed with linger 0. Each time is
/// Connect → that message received, so it covers TCP connect, greeting, security handshake and
/// one message. Prints median, minimum and maximum in ms.
/// </summary>
internal static class Handshake
{
    public const string Name = "handshake";

    public static int Run(ReadOnlySpan<string> args)
    {
        if (!PerfArguments.TryParseInproc(Name, "connection-count", args, out PerfArguments a))
        {
            return 1;
        }

        if (a.Count < 1)
        {
            Console.Error.WriteLine("connection-count must be at least 1");
            return 1;
        }

        using var context = new Context();
        using var pull = new Socket(context, SocketType.Pull);
        PerfCurve.Server(pull);
        pull.Bind("tcp://127.0.0.1:*");
        string endpoint = pull.GetOptionString(SocketOption.Last_Endpoint);

        byte[] payload = new byte[a.MessageSize];
        byte[] buffer = new byte[a.MessageSize + 1];
        double[] ms = new double[a.Count];
        for (int i = 0; i != a.Count; i++)
        {
            using var push = new Socket(context, SocketType.Push);
            push.SetOption(SocketOption.Linger, 0);
            PerfCurve.Client(push);

            long start = PerfClock.Start();
            push.Connect(endpoint);
            push.Send(payload, SendFlags.None);
            if (pull.Recv(buffer.AsSpan(), RecvFlags.None) != a.MessageSize)
            {
                return LocalThroughput.IncorrectSize();
            }

            ms[i] = PerfClock.ElapsedMicroseconds(start) / 1000.0;
        }

        Array.Sort(ms);
        int n = ms.Length;
        double median = n % 2 == 1 ? ms[n / 2] : (ms[(n / 2) - 1] + ms[n / 2]) / 2;
        CultureInfo inv = CultureInfo.InvariantCulture;
        Console.WriteLine($"mechanism: {(PerfCurve.Enabled ? "CURVE" : "NULL")}");
        Console.WriteLine($"message size: {a.MessageSize} [B]");
        Console.WriteLine($"connection count: {a.Count}");
        Console.WriteLine($"min handshake: {ms[0].ToString("F3", inv)} [ms]");
        Console.WriteLine($"median handshake: {median.ToString("F3", inv)} [ms]");
        Console.WriteLine($"max handshake: {ms[n - 1].ToString("F3", inv)} [ms]");
        return 0;
    }
}
