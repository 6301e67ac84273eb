namespace Managed.Zmq.Tests.Api.Polling;

/// <summary>The Poller's contract: argument checks, indexes, returned events, Clear, Dispose.</summary>
public class PollerTests
{
    [Theory]
    [InlineData(0)]
    [InlineData(-1)]
    public void Ctor_CapacityBelowOne_ThrowsAoore(int capacity)
    {
        var exception = Assert.Throws<ArgumentOutOfRangeException>(() => new Poller(capacity));
        Assert.Equal("capacity", exception.ParamName);
        Assert.StartsWith("Capacity must be at least 1", exception.Message);
    }

    [Fact]
    public void CountAndCapacity_New_ZeroAndGiven()
    {
        using var poller = new Poller(3);
        Assert.Equal(0, poller.Count);
        Assert.Equal(3, poller.Capacity);
    }

    [Fact]
    public void Add_Sockets_ReturnsSequentialIndexes()
    {
        using var context = new Context();
        using var a = PollingSockets.Open(context, SocketType.Pull);
        using var b = PollingSockets.Open(context, SocketType.Pull);
        using var c = PollingSockets.Open(context, SocketType.Pull);
        using var poller = new Poller(3);
        Assert.Equal(0, poller.Add(a, PollEvents.In));
        Assert.Equal(1, poller.Add(b, PollEvents.In));
        Assert.Equal(2, poller.Add(c, PollEvents.In));
        Assert.Equal(3, poller.Count);
    }

    [Fact]
    public void Add_NullSocket_ThrowsAne()
    {
        using var poller = new Poller(1);
        var exception = Assert.Throws<ArgumentNullException>(() => poller.Add(null!, PollEvents.In));
        Assert.Equal("socket", exception.ParamName);
    }

    [Fact]
    public void Add_AtCapacity_ThrowsIoe()
    {
        using var context = new Context();
        using var a = PollingSockets.Open(context, SocketType.Pull);
        using var b = PollingSockets.Open(context, SocketType.Pull);
        using var poller = new Poller(1);
        poller.Add(a, PollEvents.In);
        var exception = Assert.Throws<InvalidOperationException>(() => poller.Add(b, PollEvents.In));
        Assert.Equal("Poller is at capacity (1 sockets)", exception.Message);
        Assert.Equal(1, poller.Count);
    }

    [Fact]
    public void GetSocket_Index_ReturnsSameInstance()
    {
        using var context = new Context();
        using var a = PollingSockets.Open(context, SocketType.Pull);
        using var b = PollingSockets.Open(context, SocketType.Push);
        using var poller = new Poller(2);
        poller.Add(a, PollEvents.In);
        poller.Add(b, PollEvents.Out);
        Assert.Same(a, poller.GetSocket(0));
        Assert.Same(b, poller.GetSocket(1));
    }

    [Fact]
    public void IndexedMembers_IndexOutOfRange_ThrowAooreWithRange()
    {
        using var context = new Context();
        using var a = PollingSockets.Open(context, SocketType.Pull);
        using var poller = new Poller(2);
        poller.Add(a, PollEvents.In);
        foreach (int index in new[] { -1, 1 })
        {
            AssertIndexError(() => poller.Update(index, PollEvents.In), "Index must be between 0 and 0");
            AssertIndexError(() => poller.GetSocket(index), "Index must be between 0 and 0");
            AssertIndexError(() => poller.IsReadable(index), "Index must be between 0 and 0");
            AssertIndexError(() => poller.IsWritable(index), "Index must be between 0 and 0");
            AssertIndexError(() => poller.HasError(index), "Index must be between 0 and 0");
            AssertIndexError(() => poller.GetReturnedEvents(index), "Index must be between 0 and 0");
        }
    }

    [Fact]
    public void Poll_NoSockets_ReturnsZeroAtOnce()
    {
        using var poller = new Poller(1);
        Assert.Equal(0, poller.Poll());
        Assert.Equal(0, poller.Poll(Timeout.InfiniteTimeSpan));
    }

    [Fact]
    public void Poll_NothingPendingTimeoutZero_ReturnsZero()
    {
        using var context = new Context();
        using var pull = PollingSockets.Open(context, SocketType.Pull);
        using var poller = new Poller(1);
        poller.Add(pull, PollEvents.In);
        Assert.Equal(0, poller.Poll(0));
        Assert.False(poller.IsReadable(0));
        Assert.Equal(PollEvents.None, poller.GetReturnedEvents(0));
    }

    [Fact]
    public void Poll_OneReadableRep_ReturnsOne()
    {
        using var context = new Context();
        var (rep, req) = PollingSockets.Pair(context, SocketType.Rep, SocketType.Req, Transport.Inproc);
        using (rep)
        using (req)
        {
            req.Send("hello");
            using var poller = new Poller(1);
            poller.Add(rep, PollEvents.In);
            Assert.Equal(1, poller.Poll(PollingSockets.WaitLimit));
            Assert.True(poller.IsReadable(0));
            Assert.False(poller.IsWritable(0));
            Assert.False(poller.HasError(0));
            Assert.Equal("hello", rep.RecvString());
        }
    }

    [Fact]
    public void Poll_TwoReadableSockets_ReturnsTwo()
    {
        using var context = new Context();
        var (pullA, pushA) = PollingSockets.Pair(context, SocketType.Pull, SocketType.Push, Transport.Inproc);
        var (pullB, pushB) = PollingSockets.Pair(context, SocketType.Pull, SocketType.Push, Transport.Inproc);
        using (pullA)
        using (pushA)
        using (pullB)
        using (pushB)
        {
            pushA.Send("a");
            pushB.Send("b");
            PollingSockets.WaitReadable(pullA);
            PollingSockets.WaitReadable(pullB);
            using var poller = new Poller(2);
            poller.Add(pullA, PollEvents.In);
            poller.Add(pullB, PollEvents.In);
            Assert.Equal(2, poller.Poll(0));
            Assert.True(poller.IsReadable(0));
            Assert.True(poller.IsReadable(1));
        }
    }

    [Fact]
    public void Poll_TimeSpanOverload_MatchesMilliseconds()
    {
        using var context = new Context();
        using var pub = PollingSockets.Open(context, SocketType.Pub);
        using var poller = new Poller(1);
        poller.Add(pub, PollEvents.Out);
        Assert.Equal(1, poller.Poll(TimeSpan.Zero));
        Assert.Equal(1, poller.Poll(Timeout.InfiniteTimeSpan));
        Assert.True(poller.IsWritable(0));
    }

    [Fact]
    public void GetReturnedEvents_PubRequestedInAndOut_LimitedToReady()
    {
        using var context = new Context();
        using var pub = PollingSockets.Open(context, SocketType.Pub);
        using var poller = new Poller(1);
        poller.Add(pub, PollEvents.In | PollEvents.Out);
        Assert.Equal(1, poller.Poll(0));
        Assert.Equal(PollEvents.Out, poller.GetReturnedEvents(0));
    }

    [Fact]
    public void GetReturnedEvents_WritableButOnlyInRequested_ReturnsNone()
    {
        using var context = new Context();
        using var pub = PollingSockets.Open(context, SocketType.Pub);
        using var poller = new Poller(1);
        poller.Add(pub, PollEvents.In);
        Assert.Equal(0, poller.Poll(0));
        Assert.Equal(PollEvents.None, poller.GetReturnedEvents(0));
    }

    [Fact]
    public void Update_AfterPoll_ReplacesRequestedAndClearsReturned()
    {
        using var context = new Context();
        using var pub = PollingSockets.Open(context, SocketType.Pub);
        using var poller = new Poller(1);
        poller.Add(pub, PollEvents.Out);
        Assert.Equal(1, poller.Poll(0));
        Assert.True(poller.IsWritable(0));

        poller.Update(0, PollEvents.In);
        Assert.False(poller.IsWritable(0));
        Assert.Equal(PollEvents.None, poller.GetReturnedEvents(0));
        Assert.Equal(0, poller.Poll(0));
    }

    [Fact]
    public void Clear_Registered_CountZeroAndReusable()
    {
        using var context = new Context();
        using var pull = PollingSockets.Open(context, SocketType.Pull);
        using var pub = PollingSockets.Open(context, SocketType.Pub);
        using var poller = new Poller(1);
        poller.Add(pull, PollEvents.In);
        poller.Clear();
        Assert.Equal(0, poller.Count);
        Assert.Throws<ArgumentOutOfRangeException>(() => poller.GetSocket(0));
        Assert.Equal(0, poller.Add(pub, PollEvents.Out));
        Assert.Equal(1, poller.Poll(0));
    }

    [Fact]
    public void Dispose_Twice_DoesNotThrow()
    {
        var poller = new Poller(1);
        poller.Dispose();

        Assert.Null(Record.Exception(poller.Dispose));
    }

    [Fact]
    public void Members_AfterDispose_ThrowOde()
    {
        using var context = new Context();
        using var pull = PollingSockets.Open(context, SocketType.Pull);
        var poller = new Poller(1);
        poller.Add(pull, PollEvents.In);
        poller.Dispose();
        Assert.Throws<ObjectDisposedException>(() => poller.Count);
        Assert.Throws<ObjectDisposedException>(() => poller.Capacity);
        Assert.Throws<ObjectDisposedException>(() => poller.Add(pull, PollEvents.In));
        Assert.Throws<ObjectDisposedException>(() => poller.Update(0, PollEvents.In));
        Assert.Throws<ObjectDisposedException>(() => poller.GetSocket(0));
        Assert.Throws<ObjectDisposedException>(() => poller.Poll(0));
        Assert.Throws<ObjectDisposedException>(() => poller.Poll(TimeSpan.Zero));
        Assert.Throws<ObjectDisposedException>(() => poller.IsReadable(0));
        Assert.Throws<ObjectDisposedException>(() => poller.IsWritable(0));
        Assert.Throws<ObjectDisposedException>(() => poller.HasError(0));
        Assert.Throws<ObjectDisposedException>(() => poller.GetReturnedEvents(0));
        Assert.Throws<ObjectDisposedException>(() => poller.Clear());
    }

    [Fact]
    public void Add_NullSocketAfterDispose_ThrowsAneFirst()
    {
        var poller = new Poller(1);
        poller.Dispose();
        Assert.Throws<ArgumentNullException>(() => poller.Add(null!, PollEvents.In));
    }

    [Fact]
    public void Poll_ContextShutDown_ThrowsEterm()
    {
        using var context = new Context();
        using var pull = PollingSockets.Open(context, SocketType.Pull);
        using var poller = new Poller(1);
        poller.Add(pull, PollEvents.In);
        context.Shutdown();
        PollingSockets.AssertZmqError(ZmqConstants.ETERM, () => poller.Poll(0));
    }

    [Fact]
    public void Poll_RegisteredSocketDisposed_ThrowsEnotsock()
    {
        using var context = new Context();
        var pull = PollingSockets.Open(context, SocketType.Pull);
        using var poller = new Poller(1);
        poller.Add(pull, PollEvents.In);
        pull.Dispose();
        PollingSockets.AssertZmqError(ZmqConstants.ENOTSOCK, () => poller.Poll(0));
    }

    private static void AssertIndexError(Action action, string expectedMessage)
    {
        var exception = Assert.Throws<ArgumentOutOfRangeException>(action);
        Assert.Equal("index", exception.ParamName);
        Assert.StartsWith(expectedMessage, exception.Message);
    }
}
