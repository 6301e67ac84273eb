namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>PUSH/PULL (RFC 30): round-robin send, fair-queued receive, both directions of bind.</summary>
public abstract partial class SocketContractTests
{
    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void PushPull_OneMessage_Delivered(bool pushBinds)
    {
        var (push, pull) = pushBinds ? Pair(SocketType.Push, SocketType.Pull) : Swap(Pair(SocketType.Pull, SocketType.Push));

        push.Send("hello");

        Assert.Equal("hello", pull.RecvString());
        Assert.False(pull.HasMore);
    }

    [Fact]
    public void Push_ThreeConnectedPullers_RoundRobinEvenly()
    {
        // Connect-side pipes exist at once (Immediate = 0), so all three take part from the first send.
        var push = Create(SocketType.Push);
        var pullers = Enumerable.Range(0, 3).Select(_ => Create(SocketType.Pull)).ToArray();
        foreach (var pull in pullers)
        {
            push.Connect(Bind(pull));
        }

        for (int i = 0; i < 9; i++)
        {
            push.Send($"m{i}");
        }

        var received = pullers.Select(p => new[] { p.RecvString(), p.RecvString(), p.RecvString() }).ToArray();
        Assert.All(pullers, p => Assert.Null(TryRecvString(p, 0)));
        Assert.Equal(
            Enumerable.Range(0, 9).Select(i => $"m{i}").Order(StringComparer.Ordinal),
            received.SelectMany(r => r).Order(StringComparer.Ordinal));

        // Round-robin: each puller got every third message, in order.
        foreach (var messages in received)
        {
            int first = int.Parse(messages[0][1..], System.Globalization.CultureInfo.InvariantCulture);
            Assert.Equal([$"m{first}", $"m{first + 3}", $"m{first + 6}"], messages);
        }
    }

    [Fact]
    public void Pull_ThreePushers_FairQueuedAndOrderedPerPusher()
    {
        const int PerPusher = 100;
        var pull = Create(SocketType.Pull);
        string endpoint = Bind(pull);
        var pushers = Enumerable.Range(0, 3).Select(_ => Create(SocketType.Push)).ToArray();
        for (int p = 0; p < pushers.Length; p++)
        {
            pushers[p].Connect(endpoint);
            pushers[p].Send($"{p}:hello");
        }

        // Every pusher's connection is up once its hello has arrived.
        Assert.Equal(["0:hello", "1:hello", "2:hello"], new[] { pull.RecvString(), pull.RecvString(), pull.RecvString() }.Order(StringComparer.Ordinal));

        // Fair queuing alternates between pipes that have messages instead of draining one first.
        FairQueueBursts.AssertFairQueued(pull, pushers, PerPusher);
    }

    [Fact]
    public void Push_SendOnPull_NotSupported()
    {
        var pull = Create(SocketType.Pull);

        AssertZmqError(ZmqConstants.ENOTSUP, () => pull.Send("x"));
    }

    private static (Socket First, Socket Second) Swap((Socket Bound, Socket Connected) pair) => (pair.Connected, pair.Bound);
}
