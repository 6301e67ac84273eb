using System.Diagnostics;

namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>Would-block reporting, timeouts, HWM and the Events option.</summary>
public abstract partial class SocketContractTests
{
    [Fact]
    public void Recv_RcvtimeoExpires_ThrowsEagain11()
    {
        var pull = Create(SocketType.Pull);
        Bind(pull);
        pull.SetOption(SocketOption.Rcvtimeo, 50);
        var clock = Stopwatch.StartNew();

        var ex = Assert.Throws<ZmqException>(() => pull.Recv(new byte[8]));

        Assert.Equal(ZmqConstants.EAGAIN, ex.ErrorNumber);
        if (!OperatingSystem.IsMacOS())
        {
            Assert.Equal(11, ex.ErrorNumber);
        }

        Assert.True(clock.ElapsedMilliseconds >= 40, $"returned after {clock.ElapsedMilliseconds} ms");
    }

    [Fact]
    public void Recv_RcvtimeoZero_ThrowsEagainAtOnce()
    {
        var pull = Create(SocketType.Pull);
        pull.SetOption(SocketOption.Rcvtimeo, 0);

        AssertZmqError(ZmqConstants.EAGAIN, () => pull.RecvString());
    }

    [Fact]
    public void Recv_DontWaitNothingQueued_ReturnsMinusOne()
    {
        var pull = Create(SocketType.Pull);
        Bind(pull);

        Assert.Equal(-1, pull.Recv(new byte[8], RecvFlags.DontWait));
        Assert.False(pull.TryRecv(new byte[8], out int received));
        Assert.Equal(0, received);
        Assert.False(pull.TryRecvString(out _));
    }

    [Fact]
    public void Send_DontWaitPushWithoutPeer_ReturnsFalse()
    {
        var push = Create(SocketType.Push);

        Assert.False(push.Send("x", SendFlags.DontWait));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(100)]
    public void Send_PushWithoutPeerSndtimeo_ThrowsEagain(int sndtimeo)
    {
        var push = Create(SocketType.Push);
        push.SetOption(SocketOption.Sndtimeo, sndtimeo);
        var clock = Stopwatch.StartNew();

        AssertZmqError(ZmqConstants.EAGAIN, () => push.Send("x"));

        Assert.True(clock.ElapsedMilliseconds >= sndtimeo * 8 / 10, $"returned after {clock.ElapsedMilliseconds} ms");
    }

    [Fact]
    public void Send_PushConnectedButPeerAbsent_QueuesUpToSndhwmThenBlocks()
    {
        var push = Create(SocketType.Push);
        push.SetOption(SocketOption.Sndhwm, 2);
        push.SetOption(SocketOption.Sndtimeo, 100);
        push.Connect(UnusedEndpoint());

        Assert.True(push.Send("1", SendFlags.DontWait));
        Assert.True(push.Send("2", SendFlags.DontWait));
        Assert.False(push.Send("3", SendFlags.DontWait));
        AssertZmqError(ZmqConstants.EAGAIN, () => push.Send("3"));
    }

    [Fact]
    public void Send_PushBlockedOnHwm_ResumesWhenPeerReads()
    {
        var pull = Create(SocketType.Pull);
        var push = Create(SocketType.Push);
        push.SetOption(SocketOption.Sndhwm, 2);
        string endpoint = UnusedEndpoint();
        push.Connect(endpoint);
        push.Send("1");
        push.Send("2");
        Assert.False(push.Send("3", SendFlags.DontWait));

        pull.Bind(endpoint);

        Assert.True(push.Send("3"));
        Assert.Equal(["1", "2", "3"], new[] { pull.RecvString(), pull.RecvString(), pull.RecvString() });
    }

    [Fact]
    public void Events_PullEmptyThenMessageArrives_PollInSet()
    {
        var (pull, push) = Pair(SocketType.Pull, SocketType.Push);
        Assert.Equal(0, pull.GetOption<int>(SocketOption.Events) & (int)PollEvents.In);

        push.Send("x");

        Support.Eventually.True(() => (pull.GetOption<int>(SocketOption.Events) & (int)PollEvents.In) != 0, "PULL reports POLLIN");
        Assert.Equal("x", pull.RecvString());
        Assert.Equal(0, pull.GetOption<int>(SocketOption.Events) & (int)PollEvents.In);
    }

    [Fact]
    public void Events_PushWithAndWithoutPipe_PollOutReflectsIt()
    {
        var push = Create(SocketType.Push);
        Assert.Equal(0, push.GetOption<int>(SocketOption.Events) & (int)PollEvents.Out);

        push.Connect(UnusedEndpoint());

        Assert.Equal((int)PollEvents.Out, push.GetOption<int>(SocketOption.Events) & (int)PollEvents.Out);
    }

    [Fact]
    public void Events_ReqAfterSend_PollOutClearedUntilReply()
    {
        var (rep, req) = Pair(SocketType.Rep, SocketType.Req);
        Assert.Equal((int)PollEvents.Out, req.GetOption<int>(SocketOption.Events));

        req.Send("q");

        Assert.Equal(0, req.GetOption<int>(SocketOption.Events) & (int)PollEvents.Out);
        Assert.Equal("q", rep.RecvString());
        Assert.Equal((int)PollEvents.Out, rep.GetOption<int>(SocketOption.Events) & (int)PollEvents.Out);
        rep.Send("a");
        Support.Eventually.True(() => req.GetOption<int>(SocketOption.Events) == (int)PollEvents.In, "REQ reports POLLIN only");
    }
}
