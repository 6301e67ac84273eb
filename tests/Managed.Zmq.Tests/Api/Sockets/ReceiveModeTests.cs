using System.Diagnostics;

namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>
/// The three ways to receive, the same over every transport: a blocking Recv that
/// parks until a message or Rcvtimeo, TryRecv that never waits, and a Poller over many sockets of
/// mixed transports and types.
/// </summary>
public sealed class ReceiveModeTests : TransportSockets
{
    [Theory]
    [TransportCases]
    public void Recv_NothingArrivesWithinRcvtimeo_ThrowsEagainAfterTheTimeout(Transport transport)
    {
        var (pull, _) = Connected(SocketType.Pull, SocketType.Push, transport);
        pull.SetOption(SocketOption.Rcvtimeo, 200);
        var clock = Stopwatch.StartNew();

        AssertZmqError(ZmqConstants.EAGAIN, () => pull.RecvString());

        // "Waited about that long, then gave up": a lower bound only, as a loaded machine may take any time longer.
        Assert.True(clock.ElapsedMilliseconds >= 160, $"returned after {clock.ElapsedMilliseconds} ms");
    }

    [Theory]
    [TransportCases]
    public async Task Recv_BlockedWithoutTimeout_ReturnsWhenMessageArrives(Transport transport)
    {
        var (pull, push) = Connected(SocketType.Pull, SocketType.Push, transport);
        pull.SetOption(SocketOption.Rcvtimeo, -1);
        using var started = new ManualResetEventSlim();
        var blocked = Task.Factory.StartNew(
            () =>
            {
                started.Set();
                return RecvMessage(pull);
            },
            CancellationToken.None,
            TaskCreationOptions.LongRunning,
            TaskScheduler.Default);
        Assert.True(started.Wait(TimeSpan.FromSeconds(10)));

        SendMessage(push, "woken", "by", "this");

        Assert.Equal(["woken", "by", "this"], await CompletesAsync(blocked, "a blocked Recv did not return when a message arrived"));
    }

    [Theory]
    [TransportCases]
    public async Task TryRecv_NothingQueuedAndInfiniteRcvtimeo_ReturnsFalseWithoutWaiting(Transport transport)
    {
        var (pull, _) = Connected(SocketType.Pull, SocketType.Push, transport);
        pull.SetOption(SocketOption.Rcvtimeo, -1);

        // With Rcvtimeo -1 any wait would be forever: returning at all proves TryRecv does not block.
        var attempts = Task.Run(() =>
        {
            using var message = new Message();
            return new[]
            {
                pull.TryRecv(new byte[16], out _),
                pull.TryRecvString(out _),
                pull.TryRecv(message, out _),
                pull.Recv(new byte[16], RecvFlags.DontWait) >= 0,
            };
        });

        bool[] results = await CompletesAsync(attempts, "TryRecv blocked on an empty socket");
        Assert.Equal(new[] { false, false, false, false }, results);
    }

    [Theory]
    [TransportCases]
    public void TryRecv_MultipartQueued_ReturnsEveryFrameWithMore(Transport transport)
    {
        var (pull, push) = Connected(SocketType.Pull, SocketType.Push, transport);
        SendMessage(push, "a", "", "c");
        WaitReadable(pull);

        var frames = new List<string>();
        var more = new List<bool>();
        while (pull.TryRecvString(out string? text))
        {
            frames.Add(text);
            more.Add(pull.HasMore);
        }

        Assert.Equal(["a", "", "c"], frames);
        Assert.Equal([true, true, false], more);
    }

    [Fact]
    public void Poll_HundredMixedTypesAcrossThreeTransports_EveryMessageReceivedOnce()
    {
        var kinds = new[]
        {
            (Receiver: SocketType.Pull, Sender: SocketType.Push),
            (Receiver: SocketType.Pair, Sender: SocketType.Pair),
            (Receiver: SocketType.Router, Sender: SocketType.Dealer),
            (Receiver: SocketType.Rep, Sender: SocketType.Req),
        };
        Transport[] transports = [Transport.Inproc, Transport.Ipc, Transport.Tcp];
        var pairs = Enumerable.Range(0, 100)
            .Select(i => Connected(kinds[i / 3 % kinds.Length].Receiver, kinds[i / 3 % kinds.Length].Sender, transports[i % 3]))
            .ToArray();
        using var writable = new Poller(pairs.Length);
        using var readable = new Poller(pairs.Length);
        foreach (var (receiver, sender) in pairs)
        {
            writable.Add(sender, PollEvents.Out);
            readable.Add(receiver, PollEvents.In);
        }

        Assert.Equal(pairs.Length, writable.Poll(Timeout));
        Assert.Equal(0, readable.Poll(0));
        for (int i = 0; i < pairs.Length; i++)
        {
            pairs[i].Sender.Send($"to {i}");
        }

        var received = new string?[pairs.Length];
        int remaining = pairs.Length;
        while (remaining > 0)
        {
            Assert.True(readable.Poll(Timeout) > 0, $"Poll timed out with {remaining} messages outstanding");
            for (int i = 0; i < pairs.Length; i++)
            {
                if (!readable.IsReadable(i))
                {
                    continue;
                }

                var receiver = pairs[i].Receiver;
                Assert.True(receiver.TryRecvString(out string? first), $"socket {i} polled readable but TryRecv found nothing");
                string body = receiver.HasMore ? receiver.RecvString() : first; // a ROUTER's id frame comes first
                Assert.False(receiver.HasMore);
                Assert.Null(received[i]);
                received[i] = body;
                remaining--;
            }
        }

        Assert.Equal(Enumerable.Range(0, pairs.Length).Select(i => $"to {i}"), received);
        Assert.Equal(0, readable.Poll(0));
    }

    private (Socket Receiver, Socket Sender) Connected(SocketType receiverType, SocketType senderType, Transport transport)
    {
        var receiver = Create(receiverType);
        var sender = Create(senderType);
        sender.Connect(TestEndpoint.Bind(receiver, transport, "recv-mode"));
        return (receiver, sender);
    }

    private static void WaitReadable(Socket socket)
    {
        using var poller = new Poller(1);
        poller.Add(socket, PollEvents.In);
        Assert.Equal(1, poller.Poll(Timeout));
    }
}
