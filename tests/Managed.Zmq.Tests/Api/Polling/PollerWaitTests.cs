using System.Diagnostics;
using Managed.Zmq.Inproc;

namespace Managed.Zmq.Tests.Api.Polling;

/// <summary>How Poll waits: woken by the socket that becomes ready, by timeouts, by shutdown and disposal.</summary>
public class PollerWaitTests
{
    [Fact]
    public async Task Poll_HundredSocketsAcrossTransports_WakesOnTheReadableOne()
    {
        using var context = new Context();
        using var set = new SocketSet(context, 100);
        using var poller = set.CreatePoller();
        Assert.Equal(0, poller.Poll(0));

        foreach (int target in new[] { 7, 50, 93 })
        {
            // Sent from another thread, racing the Poll: either order must end with exactly that socket readable.
            var sender = Task.Run(() => set.Senders[target].Send($"to {target}"));
            Assert.Equal(1, poller.Poll(PollingSockets.WaitLimit));
            await sender.WaitAsync(PollingSockets.WaitLimit);
            for (int i = 0; i < set.Receivers.Count; i++)
            {
                Assert.Equal(i == target, poller.IsReadable(i));
            }

            Assert.Equal($"to {target}", set.Receivers[target].RecvString());
        }
    }

    [Fact]
    public void Poll_NothingArrives_ReturnsZeroAfterRoughlyTheTimeout()
    {
        using var context = new Context();
        using var pull = PollingSockets.Open(context, SocketType.Pull);
        using var poller = new Poller(1);
        poller.Add(pull, PollEvents.In);
        var watch = Stopwatch.StartNew();
        Assert.Equal(0, poller.Poll(200));
        watch.Stop();

        // "Waited, then gave up": a lower bound only, as a loaded machine may take any time longer.
        Assert.True(watch.ElapsedMilliseconds >= 150, $"returned after {watch.ElapsedMilliseconds} ms");
        Assert.False(poller.IsReadable(0));
    }

    [Fact]
    public void Poll_TimeSpanTimeout_ReturnsZeroAfterRoughlyTheTimeout()
    {
        using var context = new Context();
        using var push = PollingSockets.Open(context, SocketType.Push);
        using var poller = new Poller(1);
        poller.Add(push, PollEvents.Out);
        var watch = Stopwatch.StartNew();
        Assert.Equal(0, poller.Poll(TimeSpan.FromMilliseconds(150)));
        Assert.True(watch.ElapsedMilliseconds >= 100, $"returned after {watch.ElapsedMilliseconds} ms");
    }

    [Fact]
    public async Task Poll_ContextShutdownFromAnotherThread_ThrowsEterm()
    {
        using var context = new Context();
        using var pull = PollingSockets.Open(context, SocketType.Pull);
        using var poller = new Poller(1);
        poller.Add(pull, PollEvents.In);
        using var started = new ManualResetEventSlim();
        var polling = Task.Run(() =>
        {
            started.Set();
            return poller.Poll(-1);
        });
        Assert.True(started.Wait(PollingSockets.WaitLimit));
        context.Shutdown();

        var exception = await Assert.ThrowsAsync<ZmqException>(() => polling.WaitAsync(PollingSockets.WaitLimit));
        Assert.Equal(ZmqConstants.ETERM, exception.ErrorNumber);
    }

    [Fact]
    public async Task Poll_SocketDisposedFromAnotherThread_ThrowsEnotsock()
    {
        using var context = new Context();
        var pull = PollingSockets.Open(context, SocketType.Pull);
        using var poller = new Poller(1);
        poller.Add(pull, PollEvents.In);
        using var started = new ManualResetEventSlim();
        var polling = Task.Run(() =>
        {
            started.Set();
            return poller.Poll(-1);
        });
        Assert.True(started.Wait(PollingSockets.WaitLimit));
        pull.Dispose();

        var exception = await Assert.ThrowsAsync<ZmqException>(() => polling.WaitAsync(PollingSockets.WaitLimit));
        Assert.Equal(ZmqConstants.ENOTSOCK, exception.ErrorNumber);
    }

    [Fact]
    public async Task Poll_FullPushGetsRoomFromAnotherThread_Wakes()
    {
        using var context = new Context();
        using var push = PollingSockets.Open(context, SocketType.Push);
        using var pull = PollingSockets.Open(context, SocketType.Pull);
        push.SetOption(SocketOption.Sndhwm, 1);
        pull.SetOption(SocketOption.Rcvhwm, 1);
        string endpoint = TestEndpoint.Inproc("polling");
        pull.Bind(endpoint);
        push.Connect(endpoint);
        int sent = 0;
        while (push.Send("x", SendFlags.DontWait))
        {
            Assert.InRange(++sent, 1, 1000);
        }

        using var poller = new Poller(1);
        poller.Add(push, PollEvents.Out);
        Assert.Equal(0, poller.Poll(0));

        var reader = Task.Run(() => pull.RecvString());
        Assert.Equal(1, poller.Poll(PollingSockets.WaitLimit));
        Assert.Equal("x", await reader.WaitAsync(PollingSockets.WaitLimit));
    }

    [Fact]
    public void Poll_ReadySocket_AllocatesNothing()
    {
        using var context = new Context();
        using var pub = PollingSockets.Open(context, SocketType.Pub);
        using var poller = new Poller(1);
        poller.Add(pub, PollEvents.Out);
        poller.Poll(0);
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 1000; i++)
        {
            poller.Poll(-1);
        }

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
    }

    /// <summary>100 PULL sockets (inproc, ipc and tcp), each with a connected PUSH.</summary>
    internal sealed class SocketSet : IDisposable
    {
        private static readonly Transport[] s_transports = [Transport.Inproc, Transport.Ipc, Transport.Tcp];

        public SocketSet(Context context, int count)
        {
            for (int i = 0; i < count; i++)
            {
                var (receiver, sender) = PollingSockets.Pair(context, SocketType.Pull, SocketType.Push, s_transports[i % 3]);
                Receivers.Add(receiver);
                Senders.Add(sender);
            }
        }

        /// <summary>One message through every pair, so every connection has finished its handshake.</summary>
        public void WarmUp()
        {
            foreach (var sender in Senders)
            {
                sender.Send("warm-up");
            }

            foreach (var receiver in Receivers)
            {
                receiver.SetOption(SocketOption.Rcvtimeo, (int)PollingSockets.WaitLimit.TotalMilliseconds);
                Assert.Equal("warm-up", receiver.RecvString());
            }
        }

        public List<Socket> Receivers { get; } = [];

        public List<Socket> Senders { get; } = [];

        public Poller CreatePoller()
        {
            var poller = new Poller(Receivers.Count);
            foreach (var receiver in Receivers)
            {
                poller.Add(receiver, PollEvents.In);
            }

            return poller;
        }

        public void Dispose()
        {
            foreach (var socket in Senders.Concat(Receivers))
            {
                socket.Dispose();
            }
        }
    }
}
