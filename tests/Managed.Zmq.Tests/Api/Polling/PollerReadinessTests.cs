namespace Managed.Zmq.Tests.Api.Polling;

/// <summary>The readiness rules of libzmq's ZMQ_EVENTS (In: a message can be received; Out: one can be sent without blocking), which async sends and proxies rely on.</summary>
public class PollerReadinessTests
{
    [Fact]
    public void Poll_UnconnectedPush_NotWritable()
    {
        using var context = new Context();
        using var push = PollingSockets.Open(context, SocketType.Push);
        using var poller = new Poller(1);
        poller.Add(push, PollEvents.Out);
        Assert.Equal(0, poller.Poll(0));
        Assert.False(poller.IsWritable(0));
    }

    [Fact]
    public void Poll_ConnectedPush_Writable()
    {
        using var context = new Context();
        var (pull, push) = PollingSockets.Pair(context, SocketType.Pull, SocketType.Push, Transport.Inproc);
        using (pull)
        using (push)
        {
            using var poller = new Poller(1);
            poller.Add(push, PollEvents.Out);
            Assert.Equal(1, poller.Poll(PollingSockets.WaitLimit));
            Assert.True(poller.IsWritable(0));
        }
    }

    [Fact]
    public void Poll_PubWithoutSubscribers_AlwaysWritable()
    {
        using var context = new Context();
        using var pub = PollingSockets.Open(context, SocketType.Pub);
        using var poller = new Poller(1);
        poller.Add(pub, PollEvents.Out);
        Assert.Equal(1, poller.Poll(0));
        Assert.True(poller.IsWritable(0));
    }

    [Fact]
    public void Poll_Req_WritableOnlyInSendingState()
    {
        using var context = new Context();
        var (rep, req) = PollingSockets.Pair(context, SocketType.Rep, SocketType.Req, Transport.Inproc);
        using (rep)
        using (req)
        {
            using var poller = new Poller(1);
            poller.Add(req, PollEvents.Out);
            Assert.Equal(1, poller.Poll(PollingSockets.WaitLimit));

            req.Send("request");
            Assert.Equal(0, poller.Poll(0));
            Assert.False(poller.IsWritable(0));

            Assert.Equal("request", rep.RecvString());
            rep.Send("reply");
            Assert.Equal("reply", req.RecvString());
            Assert.Equal(1, poller.Poll(PollingSockets.WaitLimit));
        }
    }

    [Fact]
    public void Poll_Rep_WritableOnlyAfterReceiving()
    {
        using var context = new Context();
        var (rep, req) = PollingSockets.Pair(context, SocketType.Rep, SocketType.Req, Transport.Inproc);
        using (rep)
        using (req)
        {
            using var poller = new Poller(1);
            poller.Add(rep, PollEvents.In | PollEvents.Out);
            Assert.Equal(0, poller.Poll(0));

            req.Send("request");
            Assert.Equal(1, poller.Poll(PollingSockets.WaitLimit));
            Assert.Equal(PollEvents.In, poller.GetReturnedEvents(0));

            Assert.Equal("request", rep.RecvString());
            Assert.Equal(1, poller.Poll(0));
            Assert.Equal(PollEvents.Out, poller.GetReturnedEvents(0));

            rep.Send("reply");
            Assert.Equal(0, poller.Poll(0));
        }
    }

    [Fact]
    public void Poll_Router_AlwaysWritable()
    {
        using var context = new Context();
        using var router = PollingSockets.Open(context, SocketType.Router);
        using var poller = new Poller(1);
        poller.Add(router, PollEvents.Out);
        Assert.Equal(1, poller.Poll(0));
    }
}
