using System.Diagnostics;
using Managed.Zmq.Diagnostics;
using Managed.Zmq.InteropTests.Infrastructure;

namespace Managed.Zmq.InteropTests.Resilience;

/// <summary>
/// Many peers and many cycles: a thousand DEALERs on one ROUTER at once, and ten thousand
/// connect/disconnect cycles after which OS handles and memory are back where they started.
/// </summary>
public sealed class ScaleTests : IDisposable
{
    private const int Timeout = 20_000;

    private readonly Context _context = new();

    [Fact]
    public void Router_ThousandConcurrentDealers_EveryRequestAnswered()
    {
        long errorsBefore = InternalErrors.Count;
        using var router = NewSocket(SocketType.Router);
        router.Bind("tcp://127.0.0.1:*");
        string endpoint = router.GetOptionString(SocketOption.Last_Endpoint);
        var dealers = new List<Socket>(1000);
        try
        {
            for (int i = 0; i < 1000; i++)
            {
                var dealer = NewSocket(SocketType.Dealer);
                dealer.SetOption(SocketOption.Routing_Id, System.Text.Encoding.ASCII.GetBytes($"d{i}"));
                dealer.Connect(endpoint);
                dealers.Add(dealer);
                Assert.True(dealer.Send($"hello {i}"));
            }

            var seen = new HashSet<string>();
            for (int i = 0; i < 1000; i++)
            {
                byte[] identity = router.RecvBytes();
                string body = router.RecvString();
                Assert.True(seen.Add(body), $"{body} twice");
                router.Send(identity, SendFlags.SendMore);
                router.Send("re:" + body);
            }

            for (int i = 0; i < 1000; i++)
            {
                Assert.Equal($"re:hello {i}", dealers[i].RecvString());
            }
        }
        finally
        {
            dealers.ForEach(d => d.Dispose());
        }

        Assert.Equal(errorsBefore, InternalErrors.Count);
    }

    [Fact]
    public void ConnectDisconnect_TenThousandCycles_HandlesAndMemoryReturnToBaseline()
    {
        using var pull = NewSocket(SocketType.Pull);
        pull.Bind("tcp://127.0.0.1:*");
        string endpoint = pull.GetOptionString(SocketOption.Last_Endpoint);

        void Cycles(int count)
        {
            for (int i = 0; i < count; i++)
            {
                using var push = NewSocket(SocketType.Push);
                push.Connect(endpoint);
                if (i % 100 == 0)
                {
                    // Every hundredth cycle proves the connections really come up.
                    Assert.True(push.Send($"c{i}"));
                    Assert.Equal($"c{i}", pull.RecvString());
                }
            }
        }

        Cycles(300);
        WaitUntil(() => OpenHandles() < 200, "warm-up connections to close");
        int handlesBefore = OpenHandles();
        long memoryBefore = GC.GetTotalMemory(forceFullCollection: true);

        Cycles(10_000);

        // Teardown is asynchronous: wait (bounded) for the handles to come back.
        WaitUntil(() => OpenHandles() <= handlesBefore + 32, $"handles to return to {handlesBefore} (+32)");
        long memoryGrowth = GC.GetTotalMemory(forceFullCollection: true) - memoryBefore;
        Assert.True(memoryGrowth < 32L << 20, $"managed heap grew {memoryGrowth >> 10} KiB over 10,000 cycles");
    }

    private Socket NewSocket(SocketType type)
    {
        var socket = new Socket(_context, type);
        socket.SetOption(SocketOption.Linger, 0);
        socket.SetOption(SocketOption.Rcvtimeo, Timeout);
        socket.SetOption(SocketOption.Sndtimeo, Timeout);
        return socket;
    }

    /// <summary>Open file descriptors of this process (Linux), else the OS handle count.</summary>
    private static int OpenHandles() =>
        Directory.Exists("/proc/self/fd") ? Directory.GetFileSystemEntries("/proc/self/fd").Length : Process.GetCurrentProcess().HandleCount;

    private static void WaitUntil(Func<bool> condition, string what)
    {
        var clock = Stopwatch.StartNew();
        var spinner = default(SpinWait);
        while (!condition())
        {
            Assert.True(clock.ElapsedMilliseconds < Timeout, $"timed out waiting for {what} (now {OpenHandles()} handles)");
            spinner.SpinOnce();
        }
    }

    public void Dispose() => Deadline.Dispose(_context, "Context.Dispose after every socket was closed with Linger 0");
}
