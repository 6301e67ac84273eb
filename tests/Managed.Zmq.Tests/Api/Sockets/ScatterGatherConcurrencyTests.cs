using System.Collections.Concurrent;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>
/// SCATTER and GATHER may be used from several threads at once, as libzmq allows for its draft types (RFC 49: "MUST
/// be thread-safe"): four threads send on one SCATTER while four threads receive on one GATHER; every message
/// arrives exactly once and intact (no loss, duplicate or torn message). CHANNEL likewise, both ways at once.
/// </summary>
public sealed class ScatterGatherConcurrencyTests : TransportSockets
{
    private const int Threads = 4;
    private const int MessagesPerSender = 2_000;
    private const int PayloadSize = 100;

    /// <summary>A deadline for each blocking call and for the whole run: reached only when the test fails.</summary>
    private const int Deadline = 30_000;

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc, Transport.Inproc, Transport.Ws)]
    public async Task ScatterGather_FourSendersFourReceivers_EveryMessageOnceAndIntact(Transport transport)
    {
        var scatter = CreateShared(SocketType.Scatter);
        var gather = CreateShared(SocketType.Gather);
        scatter.Connect(TestEndpoint.Bind(gather, transport, "scatter-stress"));

        var failures = new ConcurrentQueue<string>();
        var seen = new int[Threads * MessagesPerSender];
        var receivers = Enumerable.Range(0, Threads).Select(_ => Task.Factory.StartNew(
            () => Receive(gather, seen, failures), TaskCreationOptions.LongRunning)).ToArray();
        var senders = Enumerable.Range(0, Threads).Select(s => Task.Factory.StartNew(
            () => Send(scatter, s, failures), TaskCreationOptions.LongRunning)).ToArray();

        // A TimeoutException here: a send never completed.
        await Task.WhenAll(senders).WaitAsync(TimeSpan.FromMilliseconds(Deadline));

        // One stop message per receiving thread, behind every data message on the one pipe: a thread that received
        // it receives no more.
        for (int i = 0; i < Threads; i++)
        {
            scatter.Send("stop");
        }

        await Task.WhenAll(receivers).WaitAsync(TimeSpan.FromMilliseconds(Deadline));
        Assert.Empty(failures);
        int[] missing = [.. Enumerable.Range(0, seen.Length).Where(i => seen[i] == 0)];
        int[] duplicated = [.. Enumerable.Range(0, seen.Length).Where(i => seen[i] > 1)];
        Assert.True(missing.Length == 0, $"{missing.Length} messages lost, first {string.Join(',', missing.Take(5))}");
        Assert.True(duplicated.Length == 0, $"{duplicated.Length} messages duplicated, first {string.Join(',', duplicated.Take(5))}");
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Inproc)]
    public async Task Channel_FourThreadsEachWayOnBothEnds_EveryMessageOnceAndIntact(Transport transport)
    {
        var left = CreateShared(SocketType.Channel);
        var right = CreateShared(SocketType.Channel);
        right.Connect(TestEndpoint.Bind(left, transport, "channel-stress"));

        var failures = new ConcurrentQueue<string>();
        var seenByLeft = new int[Threads * MessagesPerSender];
        var seenByRight = new int[Threads * MessagesPerSender];
        var receivers = Enumerable.Range(0, Threads).SelectMany(_ => new[]
        {
            Task.Factory.StartNew(() => Receive(left, seenByLeft, failures), TaskCreationOptions.LongRunning),
            Task.Factory.StartNew(() => Receive(right, seenByRight, failures), TaskCreationOptions.LongRunning),
        }).ToArray();
        var senders = Enumerable.Range(0, Threads).SelectMany(s => new[]
        {
            Task.Factory.StartNew(() => Send(left, s, failures), TaskCreationOptions.LongRunning),
            Task.Factory.StartNew(() => Send(right, s, failures), TaskCreationOptions.LongRunning),
        }).ToArray();

        await Task.WhenAll(senders).WaitAsync(TimeSpan.FromMilliseconds(Deadline));
        for (int i = 0; i < Threads; i++)
        {
            left.Send("stop");
            right.Send("stop");
        }

        await Task.WhenAll(receivers).WaitAsync(TimeSpan.FromMilliseconds(Deadline));
        Assert.Empty(failures);
        Assert.All(seenByLeft, count => Assert.Equal(1, count));
        Assert.All(seenByRight, count => Assert.Equal(1, count));
    }

    private static void Send(Socket socket, int sender, ConcurrentQueue<string> failures)
    {
        try
        {
            for (int seq = 0; seq < MessagesPerSender; seq++)
            {
                socket.Send(Payload(sender, seq));
            }
        }
        catch (ZmqException ex)
        {
            failures.Enqueue($"sender {sender}: {ex.Message}");
        }
    }

    private static void Receive(Socket socket, int[] seen, ConcurrentQueue<string> failures)
    {
        var buffer = new byte[PayloadSize * 2];
        while (true)
        {
            try
            {
                int size = socket.Recv(buffer);
                if (size == 4 && buffer.AsSpan(0, 4).SequenceEqual("stop"u8))
                {
                    return;
                }

                int sender = size >= 8 ? BitConverter.ToInt32(buffer, 0) : -1;
                int seq = size >= 8 ? BitConverter.ToInt32(buffer, 4) : -1;
                if (size != PayloadSize || sender < 0 || sender >= Threads || seq < 0 || seq >= MessagesPerSender
                    || !buffer.AsSpan(0, size).SequenceEqual(Payload(sender, seq)) || socket.HasMore)
                {
                    failures.Enqueue($"torn message {Convert.ToHexString(buffer, 0, Math.Min(size, buffer.Length))}");
                    return;
                }

                Interlocked.Increment(ref seen[sender * MessagesPerSender + seq]);
            }
            catch (ZmqException ex)
            {
                failures.Enqueue("receiver: " + ex.Message);
                return;
            }
        }
    }

    private static byte[] Payload(int sender, int seq)
    {
        var payload = new byte[PayloadSize];
        BitConverter.TryWriteBytes(payload.AsSpan(0), sender);
        BitConverter.TryWriteBytes(payload.AsSpan(4), seq);
        for (int i = 8; i < PayloadSize; i++)
        {
            payload[i] = (byte)(sender * 31 + seq * 7 + i);
        }

        return payload;
    }

    private Socket CreateShared(SocketType type)
    {
        var socket = Create(type);
        socket.SetOption(SocketOption.Rcvtimeo, Deadline);
        socket.SetOption(SocketOption.Sndtimeo, Deadline);
        return socket;
    }
}
