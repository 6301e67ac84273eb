namespace Managed.Zmq.Tests.Threading;

/// <summary>ZMQ_AFFINITY as libzmq's choose_io_thread reads it: bit i allows I/O thread i, 0 allows every thread.</summary>
public sealed class IoThreadAffinityTests
{
    [Fact]
    public void NextIoThread_OneBit_AlwaysThatThread()
    {
        using var context = new Context(ioThreads: 3);

        var chosen = Enumerable.Range(0, 6).Select(_ => context.NextIoThread(affinity: 0b010)).Distinct().ToList();

        Assert.Single(chosen);
        Assert.NotSame(chosen[0], context.NextIoThread(affinity: 0b100));
    }

    [Fact]
    public void NextIoThread_TwoBits_AlternatesBetweenThoseTwo()
    {
        using var context = new Context(ioThreads: 3);
        var first = context.NextIoThread(affinity: 0b001);
        var third = context.NextIoThread(affinity: 0b100);

        var chosen = Enumerable.Range(0, 6).Select(_ => context.NextIoThread(affinity: 0b101)).Distinct().ToList();

        Assert.Equal(2, chosen.Count);
        Assert.Contains(first, chosen);
        Assert.Contains(third, chosen);
    }

    [Fact]
    public void NextIoThread_ZeroOrNoExistingThread_AnyThread()
    {
        using var context = new Context(ioThreads: 2);

        var zero = Enumerable.Range(0, 4).Select(_ => context.NextIoThread(affinity: 0)).Distinct().Count();
        var beyond = Enumerable.Range(0, 4).Select(_ => context.NextIoThread(affinity: 1L << 40)).Distinct().Count();

        Assert.Equal(2, zero);
        Assert.Equal(2, beyond);
    }

    [Fact]
    public void Affinity_SetOnSocket_ConnectionsStillDeliver()
    {
        using var context = new Context(ioThreads: 2);
        using var pull = new Socket(context, SocketType.Pull);
        using var push = new Socket(context, SocketType.Push);
        pull.SetOption(SocketOption.Linger, 0);
        push.SetOption(SocketOption.Linger, 0);
        pull.SetOption(SocketOption.Rcvtimeo, 5000);
        pull.SetOption(SocketOption.Affinity, 0b10L);
        push.SetOption(SocketOption.Affinity, 0b10L);
        pull.Bind("tcp://127.0.0.1:*");

        push.Connect(pull.GetOptionString(SocketOption.Last_Endpoint));
        push.Send("pinned");

        Assert.Equal("pinned", pull.RecvString());
    }
}
