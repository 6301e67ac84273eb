using System.Text;
using Managed.Zmq.Inproc;

namespace Managed.Zmq.Tests.Api.Async;

/// <summary>The async extensions' execution model (truly asynchronous, docs/migrating.md): synchronous completion, signal-driven waits, cancellation, ordering, threads.</summary>
public class SocketAsyncExtensionsTests
{
    [Fact]
    public async Task RecvBytesAsync_FrameQueued_CompletesSynchronously()
    {
        using var context = new Context();
        var (pull, push) = PollingSockets.Pair(context, SocketType.Pull, SocketType.Push, Transport.Inproc);
        using (pull)
        using (push)
        {
            push.Send("ready");
            PollingSockets.WaitReadable(pull);
            var pending = pull.RecvBytesAsync();
            Assert.True(pending.IsCompletedSuccessfully);
            Assert.Equal("ready"u8.ToArray(), await pending);
        }
    }

    [Fact]
    public async Task SendAsync_SocketWritable_CompletesSynchronously()
    {
        using var context = new Context();
        var (pull, push) = PollingSockets.Pair(context, SocketType.Pull, SocketType.Push, Transport.Inproc);
        using (pull)
        using (push)
        {
            var bytes = push.SendAsync(new byte[] { 1, 2, 3 });
            var memory = push.SendAsync(new ReadOnlyMemory<byte>([4, 5]));
            var text = push.SendAsync("héllo");
            Assert.True(bytes.IsCompletedSuccessfully);
            Assert.True(memory.IsCompletedSuccessfully);
            Assert.True(text.IsCompletedSuccessfully);
            Assert.Equal(3, await bytes);
            Assert.Equal(2, await memory);
            Assert.Equal(Encoding.UTF8.GetByteCount("héllo"), await text);
            Assert.Equal("héllo", ReceiveLast(pull, 3));
        }
    }

    [Fact]
    public void SendAsync_AlreadyCancelledButWritable_StillCompletes()
    {
        using var context = new Context();
        var (pull, push) = PollingSockets.Pair(context, SocketType.Pull, SocketType.Push, Transport.Inproc);
        using (pull)
        using (push)
        {
            var sent = push.SendAsync("now", new CancellationToken(canceled: true));
            Assert.True(sent.IsCompletedSuccessfully);
            Assert.Equal("now", pull.RecvString());
        }
    }

    [Fact]
    public async Task RecvStringAsync_DataArrivesLater_Completes()
    {
        using var context = new Context();
        var (pull, push) = PollingSockets.Pair(context, SocketType.Pull, SocketType.Push, Transport.Tcp);
        using (pull)
        using (push)
        {
            var pending = pull.RecvStringAsync();
            Assert.False(pending.IsCompleted);
            push.Send("later");
            Assert.Equal("later", await pending.AsTask().WaitAsync(PollingSockets.WaitLimit));
        }
    }

    [Fact]
    public async Task RecvBytesAsync_IdlePullCancelled_ThrowsOceAndConsumesNothing()
    {
        using var context = new Context();
        var (pull, push) = PollingSockets.Pair(context, SocketType.Pull, SocketType.Push, Transport.Inproc);
        using (pull)
        using (push)
        {
            using var cancellation = new CancellationTokenSource();
            var pending = pull.RecvBytesAsync(cancellation.Token);
            Assert.False(pending.IsCompleted);
            cancellation.Cancel();
            var exception = await Assert.ThrowsAnyAsync<OperationCanceledException>(() => pending.AsTask().WaitAsync(PollingSockets.WaitLimit));
            Assert.Equal(cancellation.Token, exception.CancellationToken);

            push.Send("after");
            Assert.Equal("after", await pull.RecvStringAsync().AsTask().WaitAsync(PollingSockets.WaitLimit));
        }
    }

    [Fact]
    public async Task RecvBytesAsync_CancelAfterTimeout_ThrowsOce()
    {
        using var context = new Context();
        using var pull = PollingSockets.Open(context, SocketType.Pull);
        pull.Bind(TestEndpoint.Inproc("polling"));
        using var cancellation = new CancellationTokenSource(TimeSpan.FromMilliseconds(100));
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => pull.RecvBytesAsync(cancellation.Token).AsTask().WaitAsync(PollingSockets.WaitLimit));
    }

    [Fact]
    public async Task SendAsync_UnconnectedPushWithSndhwmOneCancelled_ThrowsOceAndQueuesNothing()
    {
        using var context = new Context();
        using var push = PollingSockets.Open(context, SocketType.Push);
        push.SetOption(SocketOption.Sndhwm, 1);
        push.SetOption(SocketOption.Sndtimeo, 0);
        using var cancellation = new CancellationTokenSource();
        var pending = push.SendAsync("cancelled"u8.ToArray(), cancellation.Token);
        Assert.False(pending.IsCompleted);
        cancellation.Cancel();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => pending.AsTask().WaitAsync(PollingSockets.WaitLimit));

        // Once a peer appears, the first message it gets is the one sent after the cancellation.
        using var pull = PollingSockets.Open(context, SocketType.Pull);
        string endpoint = TestEndpoint.Inproc("polling");
        pull.Bind(endpoint);
        push.Connect(endpoint);
        Assert.Equal(5, await push.SendAsync("after").AsTask().WaitAsync(PollingSockets.WaitLimit));
        Assert.Equal("after", await pull.RecvStringAsync().AsTask().WaitAsync(PollingSockets.WaitLimit));
    }

    [Fact]
    public async Task SendAsync_UnconnectedPush_CompletesWhenPeerConnects()
    {
        using var context = new Context();
        using var push = PollingSockets.Open(context, SocketType.Push);
        using var pull = PollingSockets.Open(context, SocketType.Pull);
        string endpoint = TestEndpoint.Bind(push, Transport.Tcp);
        var pending = push.SendAsync("queued");
        Assert.False(pending.IsCompleted);

        // The peer connects from its side: no synchronous call on the PUSH while its send is pending (a socket is used
        // from one thread at a time, docs/getting-started.md).
        pull.Connect(endpoint);
        Assert.Equal(6, await pending.AsTask().WaitAsync(PollingSockets.WaitLimit));
        Assert.Equal("queued", await pull.RecvStringAsync().AsTask().WaitAsync(PollingSockets.WaitLimit));
    }

    [Fact]
    public async Task SendAsync_HundredSequentialSends_AllArriveInOrder()
    {
        using var context = new Context();
        var (pull, push) = PollingSockets.Pair(context, SocketType.Pull, SocketType.Push, Transport.Tcp);
        using (pull)
        using (push)
        {
            for (int i = 0; i < 100; i++)
            {
                Assert.Equal(4, await push.SendAsync(BitConverter.GetBytes(i)));
            }

            for (int i = 0; i < 100; i++)
            {
                var frame = await pull.RecvBytesAsync().AsTask().WaitAsync(PollingSockets.WaitLimit);
                Assert.Equal(i, BitConverter.ToInt32(frame));
            }
        }
    }

    [Fact]
    public async Task RecvStringAsync_SeveralPending_CompleteInCallOrder()
    {
        using var context = new Context();
        var (pull, push) = PollingSockets.Pair(context, SocketType.Pull, SocketType.Push, Transport.Ipc);
        using (pull)
        using (push)
        {
            var first = pull.RecvStringAsync();
            var second = pull.RecvStringAsync();
            var third = pull.RecvStringAsync();
            push.Send("1");
            push.Send("2");
            push.Send("3");
            Assert.Equal("1", await first.AsTask().WaitAsync(PollingSockets.WaitLimit));
            Assert.Equal("2", await second.AsTask().WaitAsync(PollingSockets.WaitLimit));
            Assert.Equal("3", await third.AsTask().WaitAsync(PollingSockets.WaitLimit));
        }
    }

    [Fact]
    public async Task SendAsync_SeveralPending_CompleteInCallOrder()
    {
        using var context = new Context();
        using var push = PollingSockets.Open(context, SocketType.Push);
        using var pull = PollingSockets.Open(context, SocketType.Pull);
        string endpoint = TestEndpoint.Bind(push, Transport.Inproc);
        var sends = Enumerable.Range(0, 5).Select(i => push.SendAsync(i.ToString()).AsTask()).ToArray();
        Assert.All(sends, send => Assert.False(send.IsCompleted));
        pull.Connect(endpoint);
        await Task.WhenAll(sends).WaitAsync(PollingSockets.WaitLimit);
        for (int i = 0; i < 5; i++)
        {
            Assert.Equal(i.ToString(), await pull.RecvStringAsync().AsTask().WaitAsync(PollingSockets.WaitLimit));
        }
    }

    [Fact]
    public async Task RecvBytesAsync_OneMegabytePayload_RoundTrips()
    {
        using var context = new Context();
        var (pull, push) = PollingSockets.Pair(context, SocketType.Pull, SocketType.Push, Transport.Tcp);
        using (pull)
        using (push)
        {
            var payload = new byte[1024 * 1024];
            new Random(42).NextBytes(payload);
            var receive = pull.RecvBytesAsync();
            Assert.Equal(payload.Length, await push.SendAsync(payload).AsTask().WaitAsync(PollingSockets.WaitLimit));
            Assert.Equal(payload, await receive.AsTask().WaitAsync(PollingSockets.WaitLimit));
        }
    }

    [Theory]
    [TransportCases]
    public async Task RecvBytesAsync_Pending_ContinuationNotOnIoThread(Transport transport)
    {
        using var context = new Context();
        var (pull, push) = PollingSockets.Pair(context, SocketType.Pull, SocketType.Push, transport);
        using (pull)
        using (push)
        {
            for (int i = 0; i < 20; i++)
            {
                var pending = pull.RecvBytesAsync();
                Assert.False(pending.IsCompleted);
                var continuationThread = ThreadOfContinuation(pending);
                await Task.Run(() => push.Send("wake")).WaitAsync(PollingSockets.WaitLimit);
                string name = await continuationThread.WaitAsync(PollingSockets.WaitLimit);
                Assert.False(name.StartsWith("Managed.Zmq I/O", StringComparison.Ordinal), name);
            }
        }
    }

    [Fact]
    public async Task MultipartAsync_PendingReceive_GetsWholeMessage()
    {
        using var context = new Context();
        var (pull, push) = PollingSockets.Pair(context, SocketType.Pull, SocketType.Push, Transport.Tcp);
        using (pull)
        using (push)
        {
            var receive = pull.RecvMultipartAsync();
            Assert.False(receive.IsCompleted);
            using var outgoing = new MultipartMessage();
            outgoing.Add("a");
            outgoing.AddEmptyFrame();
            outgoing.Add("c");
            await push.SendMultipartAsync(outgoing);
            Assert.Equal(0, outgoing[0].Size);

            using var incoming = await receive.AsTask().WaitAsync(PollingSockets.WaitLimit);
            Assert.Equal(new[] { "a", string.Empty, "c" }, incoming.Select(m => m.ToString()));
            Assert.False(pull.HasMore);
        }
    }

    [Fact]
    public async Task SendMultipartAsync_WaitingForPeer_QueuesAllFramesAtOnce()
    {
        using var context = new Context();
        using var push = PollingSockets.Open(context, SocketType.Push);
        using var pull = PollingSockets.Open(context, SocketType.Pull);
        using var outgoing = new MultipartMessage();
        outgoing.Add("1");
        outgoing.Add("2");
        string endpoint = TestEndpoint.Bind(push, Transport.Ipc);
        var pending = push.SendMultipartAsync(outgoing);
        Assert.False(pending.IsCompleted);

        pull.Connect(endpoint);
        await pending.AsTask().WaitAsync(PollingSockets.WaitLimit);
        using var incoming = await pull.RecvMultipartAsync().AsTask().WaitAsync(PollingSockets.WaitLimit);
        Assert.Equal(new[] { "1", "2" }, incoming.Select(m => m.ToString()));
    }

    [Fact]
    public async Task ReqRepAsync_RoundTrips_BothDirections()
    {
        using var context = new Context();
        var (rep, req) = PollingSockets.Pair(context, SocketType.Rep, SocketType.Req, Transport.Tcp);
        using (rep)
        using (req)
        {
            var request = rep.RecvStringAsync();
            await req.SendAsync("ping");
            Assert.Equal("ping", await request.AsTask().WaitAsync(PollingSockets.WaitLimit));
            var reply = req.RecvStringAsync();
            await rep.SendAsync("pong");
            Assert.Equal("pong", await reply.AsTask().WaitAsync(PollingSockets.WaitLimit));
        }
    }

    [Fact]
    public async Task AsyncPairs_FiveConcurrent_AllComplete()
    {
        using var context = new Context();
        var pairs = Enumerable.Range(0, 5).Select(_ => PollingSockets.Pair(context, SocketType.Pull, SocketType.Push, Transport.Tcp)).ToList();
        try
        {
            var work = pairs.Select(async pair =>
            {
                for (int i = 0; i < 50; i++)
                {
                    var receive = pair.Receiver.RecvStringAsync();
                    await pair.Sender.SendAsync($"m{i}");
                    Assert.Equal($"m{i}", await receive);
                }
            });
            await Task.WhenAll(work).WaitAsync(PollingSockets.WaitLimit);
        }
        finally
        {
            foreach (var (receiver, sender) in pairs)
            {
                receiver.Dispose();
                sender.Dispose();
            }
        }
    }

    [Fact]
    public async Task RecvStringAsync_SocketDisposedWhilePending_ThrowsOde()
    {
        using var context = new Context();
        var pull = PollingSockets.Open(context, SocketType.Pull);
        pull.Bind(TestEndpoint.Inproc("polling"));
        var pending = pull.RecvStringAsync();
        pull.Dispose();
        await Assert.ThrowsAsync<ObjectDisposedException>(() => pending.AsTask().WaitAsync(PollingSockets.WaitLimit));
    }

    [Fact]
    public async Task RecvStringAsync_ContextShutDownWhilePending_ThrowsEterm()
    {
        using var context = new Context();
        using var pull = PollingSockets.Open(context, SocketType.Pull);
        pull.Bind(TestEndpoint.Inproc("polling"));
        var pending = pull.RecvStringAsync();
        context.Shutdown();
        var exception = await Assert.ThrowsAsync<ZmqException>(() => pending.AsTask().WaitAsync(PollingSockets.WaitLimit));
        Assert.Equal(ZmqConstants.ETERM, exception.ErrorNumber);
    }

    [Fact]
    public async Task SendAsync_SubSocket_FaultsWithEnotsup()
    {
        using var context = new Context();
        using var sub = PollingSockets.Open(context, SocketType.Sub);
        var exception = await Assert.ThrowsAsync<ZmqException>(() => sub.SendAsync("x").AsTask());
        Assert.Equal(ZmqConstants.ENOTSUP, exception.ErrorNumber);
    }

    [Fact]
    public async Task ArgumentChecks_PerOverload_ThrownOrFaultedAsSpecified()
    {
        using var context = new Context();
        using var push = PollingSockets.Open(context, SocketType.Push);
        Assert.Equal("socket", Assert.Throws<ArgumentNullException>(() => SocketAsyncExtensions.SendAsync(null!, new byte[1])).ParamName);
        Assert.Equal("data", Assert.Throws<ArgumentNullException>(() => push.SendAsync((byte[])null!)).ParamName);

        Assert.Equal("socket", (await Assert.ThrowsAsync<ArgumentNullException>(() => SocketAsyncExtensions.SendAsync(null!, ReadOnlyMemory<byte>.Empty).AsTask())).ParamName);
        Assert.Equal("socket", (await Assert.ThrowsAsync<ArgumentNullException>(() => SocketAsyncExtensions.SendAsync(null!, "x").AsTask())).ParamName);
        Assert.Equal("text", (await Assert.ThrowsAsync<ArgumentNullException>(() => push.SendAsync((string)null!).AsTask())).ParamName);
        Assert.Equal("socket", (await Assert.ThrowsAsync<ArgumentNullException>(() => SocketAsyncExtensions.RecvBytesAsync(null!).AsTask())).ParamName);
        Assert.Equal("socket", (await Assert.ThrowsAsync<ArgumentNullException>(() => SocketAsyncExtensions.RecvStringAsync(null!).AsTask())).ParamName);
        Assert.Equal("socket", (await Assert.ThrowsAsync<ArgumentNullException>(() => SocketAsyncExtensions.RecvMultipartAsync(null!).AsTask())).ParamName);
        Assert.Equal("socket", (await Assert.ThrowsAsync<ArgumentNullException>(() => SocketAsyncExtensions.SendMultipartAsync(null!, new MultipartMessage()).AsTask())).ParamName);
        Assert.Equal("message", (await Assert.ThrowsAsync<ArgumentNullException>(() => push.SendMultipartAsync(null!).AsTask())).ParamName);

        using var empty = new MultipartMessage();
        var invalid = await Assert.ThrowsAsync<InvalidOperationException>(() => push.SendMultipartAsync(empty).AsTask());
        Assert.Equal("Cannot send empty multipart message", invalid.Message);
    }

    [Fact]
    public async Task SendAsync_DisposedSocket_FaultsWithOde()
    {
        using var context = new Context();
        var push = PollingSockets.Open(context, SocketType.Push);
        push.Dispose();
        await Assert.ThrowsAsync<ObjectDisposedException>(() => push.SendAsync("x").AsTask());
    }

    /// <summary>Awaits without a synchronization context, so the continuation runs wherever the library resumes it.</summary>
    private static async Task<string> ThreadOfContinuation(ValueTask<byte[]> pending)
    {
        await pending.ConfigureAwait(false);
        return Thread.CurrentThread.Name ?? string.Empty;
    }

    private static string ReceiveLast(Socket socket, int count)
    {
        string last = string.Empty;
        for (int i = 0; i < count; i++)
        {
            socket.SetOption(SocketOption.Rcvtimeo, (int)PollingSockets.WaitLimit.TotalMilliseconds);
            last = socket.RecvString();
        }

        return last;
    }
}
