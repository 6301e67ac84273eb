using System.Text;
using Managed.Zmq.Tests.Support;
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// Commands in the received stream (RFC 37 §Connection Heartbeating, docs/libzmq-behaviour.md L11, docs/libzmq-behaviour.md L13): libzmq sends PING
/// whenever its timer fires, between the frames of a message too. A command is answered or dropped by the
/// engine, never splits a message nor reaches the application, and never takes queue space the
/// application must free: a peer's command flood cannot grow the receiving side's memory.
/// </summary>
public sealed class CommandStreamTests : ResilienceFixture
{
    /// <summary>What one receive can leave in the queue: far below any flood sent here.</summary>
    private const long OneReceiveBound = 1024 * 1024;

    private const int FloodChunk = 1024 * 1024;

    private static byte[] Pong(string context) => ZmtpBytes.Command("PONG", Encoding.ASCII.GetBytes(context));

    private static byte[] Ping(string context) => ZmtpBytes.Ping(0, Encoding.ASCII.GetBytes(context));

    /// <summary>Three three-frame messages with a PING between frames 1 and 2 and an unknown command between 2 and 3.</summary>
    private static byte[] InterleavedStream() => ZmtpBytes.Concat(
        [.. Enumerable.Range(0, 3).SelectMany(i => new[]
        {
            ZmtpBytes.Message($"a{i}", more: true),
            Ping($"ctx{i}"),
            ZmtpBytes.Message($"b{i}", more: true),
            ZmtpBytes.Command("UNKNOWN", "data"u8),
            ZmtpBytes.Message($"c{i}"),
        })]);

    private static void SendInChunks(RawPeer peer, byte[] bytes, int chunk)
    {
        if (chunk == 0)
        {
            peer.Send(bytes);
            return;
        }

        for (int offset = 0; offset < bytes.Length; offset += chunk)
        {
            peer.Send(bytes[offset..Math.Min(bytes.Length, offset + chunk)]);
        }
    }

    private static void AssertPongs(RawPeer peer, params string[] contexts)
    {
        foreach (string context in contexts)
        {
            var (flags, body) = peer.ReadFrame();
            Assert.Equal(ZmtpBytes.FlagCommand, flags);
            Assert.Equal(Pong(context)[2..], body);
        }
    }

    /// <summary>The one pipe of <paramref name="socket"/>'s one connection, once its handshake is done.</summary>
    private static StreamPipe OnlyPipe(Socket socket, MonitorProbe monitor)
    {
        monitor.WaitFor(MonitorProbe.HandshakeSucceeded);

        // The pipe's arrival is queued for the socket's thread (this one) just after the monitor event.
        Assert.True(SpinWait.SpinUntil(() => { socket.Core.ProcessEvents(); return socket.Core.PatternPipes.Any(); }, Timeout));
        return Assert.IsType<StreamPipe>(Assert.Single(socket.Core.PatternPipes));
    }

    /// <summary>Unknown commands of assorted sizes, short and long frames, exactly <see cref="FloodChunk"/> octets.</summary>
    private static byte[] UnknownCommandChunk()
    {
        var chunk = new List<byte>(FloodChunk);
        int i = 0;
        while (true)
        {
            var command = ZmtpBytes.Command("FLOOD", new byte[(i++ * 97) % 1500]);
            if (chunk.Count + command.Length > FloodChunk - 16)
            {
                break;
            }

            chunk.AddRange(command);
        }

        // Pad to the exact size with one last command (header 2 + name 6 + data).
        chunk.AddRange(ZmtpBytes.Command("FLOOD", new byte[FloodChunk - chunk.Count - 2 - 6]));
        return chunk.ToArray();
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(5)]
    public void Read_CommandsBetweenFramesToRouter_MessagesIntactAndPingsAnswered(int chunk)
    {
        var guard = InternalErrorsGuard.Start();
        var router = Create(SocketType.Router);
        using var peer = RawPeer.Connect(RawPeer.PortOf(BindTcp(router)));
        peer.CompleteNullHandshake("DEALER");

        SendInChunks(peer, InterleavedStream(), chunk);

        for (int i = 0; i < 3; i++)
        {
            router.RecvBytes();
            Assert.True(router.HasMore);
            Assert.Equal($"a{i}", router.RecvString());
            Assert.True(router.HasMore);
            Assert.Equal($"b{i}", router.RecvString());
            Assert.True(router.HasMore);
            Assert.Equal($"c{i}", router.RecvString());
            Assert.False(router.HasMore);
        }

        // RFC 37: 04 PONG + the PING's context, one for each PING, in order.
        AssertPongs(peer, "ctx0", "ctx1", "ctx2");
        Assert.False(router.TryRecvString(out _), "nothing but the three messages reaches the application");
        guard.AssertNoneSince();
    }

    [Theory]
    [InlineData(SocketType.Dealer, "DEALER")]
    [InlineData(SocketType.Pull, "PUSH")]
    [InlineData(SocketType.Pair, "PAIR")]
    public void Read_CommandsBetweenFrames_MessagesIntact(SocketType type, string peerType)
    {
        var server = Create(type);
        using var peer = RawPeer.Connect(RawPeer.PortOf(BindTcp(server)));
        peer.CompleteNullHandshake(peerType);

        peer.Send(InterleavedStream());

        for (int i = 0; i < 3; i++)
        {
            Assert.Equal($"a{i}", server.RecvString());
            Assert.Equal($"b{i}", server.RecvString());
            Assert.Equal($"c{i}", server.RecvString());
            Assert.False(server.HasMore);
        }

        AssertPongs(peer, "ctx0", "ctx1", "ctx2");
    }

    [Fact]
    public void Read_ReservedFlagBitsSetByPeer_IgnoredAndMessagesIntact()
    {
        var guard = InternalErrorsGuard.Start();
        var pull = Create(SocketType.Pull);
        using var peer = RawPeer.Connect(RawPeer.PortOf(BindTcp(pull)));
        peer.CompleteNullHandshake("PUSH");

        // Every reserved bit set on a two-frame message and on a single frame (RFC 23: libzmq ignores them).
        var first = ZmtpBytes.Message("one", more: true);
        var second = ZmtpBytes.Message("two");
        var third = ZmtpBytes.Message("three");
        first[0] |= 0xF8;
        second[0] |= 0xF8;
        third[0] |= 0x80;
        peer.Send(ZmtpBytes.Concat(first, second, third));

        Assert.Equal("one", pull.RecvString());
        Assert.True(pull.HasMore);
        Assert.Equal("two", pull.RecvString());
        Assert.False(pull.HasMore);
        Assert.Equal("three", pull.RecvString());
        Assert.False(pull.HasMore);
        guard.AssertNoneSince();
    }

    [Fact]
    public void Read_UnknownCommandFloodToPullNotReading_NothingBufferedAndConnectionKept()
    {
        var guard = InternalErrorsGuard.Start();
        var pull = Create(SocketType.Pull);
        using var monitor = Monitor(pull);
        using var peer = RawPeer.Connect(RawPeer.PortOf(BindTcp(pull)));
        peer.CompleteNullHandshake("PUSH");
        var pipe = OnlyPipe(pull, monitor);

        var chunk = UnknownCommandChunk();
        for (int i = 0; i < 200; i++)
        {
            peer.Send(chunk);
        }

        // The PONG says every octet before its PING went through the engine.
        peer.Send(Ping("sync"));
        AssertPongs(peer, "sync");

        // docs/libzmq-behaviour.md L11: dropped as libzmq drops them; nothing queued, the connection kept.
        Assert.Equal(0, pipe.Inbound.BufferedBytes);
        Assert.Equal(0, pipe.InboundQueuedMessages);
        peer.Send(ZmtpBytes.Message("after"));
        Assert.Equal("after", pull.RecvString());
        guard.AssertNoneSince();
    }

    [Fact]
    public void Read_PingFloodWithPongsNotRead_NothingBufferedAndConnectionKept()
    {
        var guard = InternalErrorsGuard.Start();
        var pull = Create(SocketType.Pull);
        using var monitor = Monitor(pull);
        using var peer = RawPeer.Connect(RawPeer.PortOf(BindTcp(pull)));
        peer.CompleteNullHandshake("PUSH");
        var pipe = OnlyPipe(pull, monitor);

        // 8-octet PINGs, 32 MiB of them: their PONGs fill both socket buffers long before the end. libzmq
        // keeps one PONG pending and goes on reading; so do we, with a bounded control buffer.
        var ping = ZmtpBytes.Ping(0, default);
        var chunk = ZmtpBytes.Concat([.. Enumerable.Repeat(ping, FloodChunk / ping.Length)]);
        for (int i = 0; i < 32; i++)
        {
            peer.Send(chunk);
        }

        peer.Send(ZmtpBytes.Message("after"));
        Assert.Equal("after", pull.RecvString());
        Assert.Equal(0, pipe.Inbound.BufferedBytes);
        Assert.Equal(0, pipe.InboundQueuedMessages);
        guard.AssertNoneSince();
    }

    [Fact]
    public void Read_RcvhwmReachedThenCommandsAndMessages_ReadingStopsUntilApplicationReads()
    {
        var guard = InternalErrorsGuard.Start();
        var pull = Create(SocketType.Pull);
        pull.SetOption(SocketOption.Rcvhwm, 10);
        using var monitor = Monitor(pull);
        using var peer = RawPeer.Connect(RawPeer.PortOf(BindTcp(pull)));
        peer.CompleteNullHandshake("PUSH");
        var pipe = OnlyPipe(pull, monitor);

        // 9 messages, a PING to know they are in, the 10th (RCVHWM), then 64 MiB mostly of commands.
        peer.Send(ZmtpBytes.Concat([.. Enumerable.Range(0, 9).Select(i => ZmtpBytes.Message($"m{i}"))]));
        peer.Send(Ping("sync"));
        AssertPongs(peer, "sync");
        peer.Send(ZmtpBytes.Message("m9"));

        var commands = UnknownCommandChunk();
        const int FloodChunks = 64;
        var flood = BackgroundCall.Start(() =>
        {
            for (int i = 0; i < FloodChunks; i++)
            {
                if (!peer.TrySend(ZmtpBytes.Concat(ZmtpBytes.Message($"m{10 + i}"), commands)))
                {
                    return;
                }
            }
        });

        Assert.True(SpinWait.SpinUntil(() => pipe.IsReaderPaused, Timeout), "the engine stops reading at RCVHWM");
        Assert.InRange(pipe.Inbound.BufferedBytes, 0, OneReceiveBound);

        // The application reads: the engine resumes, and every message arrives whole and in order.
        for (int i = 0; i < 10 + FloodChunks; i++)
        {
            Assert.Equal($"m{i}", pull.RecvString());
        }

        Assert.True(flood.Wait(Timeout), "the flood went through once the application read");
        peer.Send(Ping("end"));
        AssertPongs(peer, "end");
        Assert.Equal(0, pipe.Inbound.BufferedBytes);
        guard.AssertNoneSince();
    }

    [Fact]
    public void Read_SubscribeFloodToPubNotSending_CountedAgainstRcvhwm()
    {
        var pub = Create(SocketType.Pub);
        pub.SetOption(SocketOption.Rcvhwm, 4);
        using var monitor = Monitor(pub);
        using var peer = RawPeer.Connect(RawPeer.PortOf(BindTcp(pub)));
        peer.CompleteNullHandshake("SUB");
        var pipe = OnlyPipe(pub, monitor);

        // SUBSCRIBE is a command (RFC 37) the publisher's socket must see: queued, and counted as libzmq's
        // pipe counts it, so an application that does not send stops the reads at RCVHWM.
        var subscribe = ZmtpBytes.Command("SUBSCRIBE", "topic"u8);
        var chunk = ZmtpBytes.Concat([.. Enumerable.Repeat(subscribe, FloodChunk / subscribe.Length)]);
        var flood = BackgroundCall.Start(() =>
        {
            for (int i = 0; i < 64 && peer.TrySend(chunk); i++)
            {
            }
        });

        Assert.True(SpinWait.SpinUntil(() => pipe.IsReaderPaused, Timeout), "the engine stops reading at RCVHWM");
        Assert.InRange(pipe.Inbound.BufferedBytes, 0, OneReceiveBound);
        pub.Dispose();
        Assert.True(flood.Wait(Timeout), "the flood ends with the connection");
    }

    [Fact]
    public void Read_CommandLargerThanMaxmsgsize_Closed()
    {
        // docs/libzmq-behaviour.md L10: MAXMSGSIZE is checked per frame, commands included.
        var pull = Create(SocketType.Pull);
        pull.SetOption(SocketOption.Maxmsgsize, 100L);
        using var monitor = Monitor(pull);
        using var peer = RawPeer.Connect(RawPeer.PortOf(BindTcp(pull)));
        peer.CompleteNullHandshake("PUSH");

        peer.Send(ZmtpBytes.Command("UNKNOWN", new byte[100]));
        Assert.True(peer.WaitUntilClosed(Timeout), "a command over MAXMSGSIZE ends the connection");
        monitor.WaitFor(SocketMonitorEvent.Disconnected);
    }

    [Fact]
    public void Read_CommandWithinMaxmsgsize_Dropped()
    {
        var pull = Create(SocketType.Pull);
        pull.SetOption(SocketOption.Maxmsgsize, 100L);
        using var peer = RawPeer.Connect(RawPeer.PortOf(BindTcp(pull)));
        peer.CompleteNullHandshake("PUSH");

        // Body 1 + 7 + 92 = 100 octets: at the limit, allowed, and dropped as unknown.
        peer.Send(ZmtpBytes.Concat(ZmtpBytes.Command("UNKNOWN", new byte[92]), ZmtpBytes.Message("after")));
        Assert.Equal("after", pull.RecvString());
    }

    [Theory]
    [InlineData(0)]
    [InlineData(3)]
    [InlineData(1000)]
    public void Read_HugeUnknownCommand_DroppedWithoutBufferingIt(int firstPart)
    {
        var guard = InternalErrorsGuard.Start();
        var pull = Create(SocketType.Pull);
        using var monitor = Monitor(pull);
        using var peer = RawPeer.Connect(RawPeer.PortOf(BindTcp(pull)));
        peer.CompleteNullHandshake("PUSH");
        var pipe = OnlyPipe(pull, monitor);

        // 64 MiB in one command frame, its first octets sent apart so that the engine sees the header alone.
        var command = ZmtpBytes.Command("UNKNOWN", new byte[64 * FloodChunk]);
        peer.Send(command[..(9 + firstPart)]);
        peer.Send(command[(9 + firstPart)..]);
        peer.Send(ZmtpBytes.Concat(Ping("sync"), ZmtpBytes.Message("after")));

        AssertPongs(peer, "sync");
        Assert.Equal("after", pull.RecvString());
        Assert.Equal(0, pipe.Inbound.BufferedBytes);
        Assert.InRange(pipe.Inbound.WriteBuffer.Length, 0, OneReceiveBound);
        guard.AssertNoneSince();
    }

    [Fact]
    public void Read_HugePing_AnsweredWithFirst16ContextOctets()
    {
        var pull = Create(SocketType.Pull);
        using var peer = RawPeer.Connect(RawPeer.PortOf(BindTcp(pull)));
        peer.CompleteNullHandshake("PUSH");

        var context = Enumerable.Range(0, 100_000).Select(i => (byte)('a' + (i % 26))).ToArray();
        var ping = ZmtpBytes.Ping(0, context);
        peer.Send(ping[..20]);
        peer.Send(ping[20..]);

        AssertPongs(peer, "abcdefghijklmnop");
        peer.Send(ZmtpBytes.Message("after"));
        Assert.Equal("after", pull.RecvString());
    }

    [Fact]
    public void Read_HugeSubscribeToXpub_KeptWhole()
    {
        var xpub = Create(SocketType.XPub);
        using var peer = RawPeer.Connect(RawPeer.PortOf(BindTcp(xpub)));
        peer.CompleteNullHandshake("SUB");

        var topic = Enumerable.Range(0, 100_000).Select(i => (byte)('a' + (i % 26))).ToArray();
        var subscribe = ZmtpBytes.Command("SUBSCRIBE", topic);
        peer.Send(subscribe[..12]);
        peer.Send(subscribe[12..]);

        Assert.Equal([0x01, .. topic], xpub.RecvBytes());
    }
}
