using System.Text;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// Named hostile inputs from a raw TCP client against a listening PULL (libzmq's bind fuzzers and
/// malformed-peer tests, docs/libzmq-behaviour.md L2, docs/libzmq-behaviour.md L4, docs/libzmq-behaviour.md L6, docs/libzmq-behaviour.md L10, docs/libzmq-behaviour.md L11). Each time: the connection is closed, or the
/// input is accepted as libzmq accepts it; the server keeps serving the next good client; nothing
/// throws on the test thread; and no exception was swallowed on an I/O thread.
/// </summary>
public sealed class HostileInputTests : ResilienceFixture
{
    private enum Outcome
    {
        /// <summary>The server closes the connection.</summary>
        Closed,

        /// <summary>The server keeps the connection and delivers a message sent after the input.</summary>
        Accepted,

        /// <summary>Either is acceptable; only the server's health is checked.</summary>
        Either,
    }

    private static byte[] HandshakeBytes(string socketType = "PUSH") => ZmtpBytes.Concat(ZmtpBytes.Greeting(), ZmtpBytes.Ready(socketType));

    private void AssertHandled(byte[] input, Outcome expected, bool handshakeFirst = false, Action<Socket>? configure = null)
    {
        var guard = InternalErrorsGuard.Start();
        var server = Create(SocketType.Pull);
        configure?.Invoke(server);
        using var monitor = Monitor(server);
        string endpoint = BindTcp(server);

        using (var peer = RawPeer.Connect(RawPeer.PortOf(endpoint)))
        {
            if (handshakeFirst)
            {
                peer.CompleteNullHandshake("PUSH");
            }

            peer.TrySend(input);
            switch (expected)
            {
                case Outcome.Closed:
                    Assert.True(peer.WaitUntilClosed(3000), "the server closes a connection that sent this");
                    monitor.WaitFor(SocketMonitorEvent.Disconnected);
                    break;
                case Outcome.Accepted:
                    Assert.True(peer.TrySend(ZmtpBytes.Message("after")), "the connection is still open");
                    Assert.Equal("after", server.RecvString());
                    break;
            }
        }

        AssertServesGoodClient(server, endpoint);
        guard.AssertNoneSince();
    }

    [Fact]
    public void Greeting_HttpRequest_HeldAsZmtp10IdentityWithoutHarm() =>
        // A first octet other than 0xFF is a ZMTP 1.0 peer (RFC 23 §Detecting ZMTP 1.0 and 2.0 Peers): 'G' is the
        // length of its identity frame, which libzmq waits for too, until the handshake timer ends the connection.
        AssertHandled(Encoding.ASCII.GetBytes("GET / HTTP/1.1\r\nHost: x\r\n\r\n".PadRight(64, ' ')), Outcome.Either);

    [Fact]
    public void Greeting_FirstOctetZero_ClosedAsZmtp10FrameOfLengthZero() =>
        // RFC 13: a length counts the flags octet, so 0 is impossible; libzmq's 1.0 decoder closes (EPROTO).
        AssertHandled([0x00, 0x00], Outcome.Closed);

    [Fact]
    public void Greeting_Octet9BitClear_ClosedAsUnversioned()
    {
        // Bit 0 of octet 9 clear: a ZMTP 1.0 identity in the long form, whose 8-octet length (the padding, 0) is impossible.
        var greeting = ZmtpBytes.Greeting();
        greeting[9] = 0x7E;
        AssertHandled(greeting, Outcome.Closed);
    }

    [Fact]
    public void Greeting_Revision0_ServedAsVersionedZmtp10() =>
        // Revision 00 is versioned ZMTP 1.0 (docs/libzmq-behaviour.md L25): "NULL…" is then read as RFC 13 frames; Zmtp10PeerTests covers the real thing.
        AssertHandled(ZmtpBytes.Greeting(major: 0, minor: 0), Outcome.Either);

    [Fact]
    public void Greeting_Revision1ThenGarbageForIdentity_Closed() =>
        // Read as ZMTP 2.0 (RFC 15): after the socket-type octet, "NULL…" is no valid identity frame.
        AssertHandled(ZmtpBytes.Greeting(major: 1, minor: 0), Outcome.Closed);

    [Fact]
    public void Greeting_Revision2_AcceptedAs3x() =>
        // docs/libzmq-behaviour.md L2: libzmq speaks 3.1 to revision 2 (the RFC's "2.0" label notwithstanding).
        AssertHandled(ZmtpBytes.Concat(ZmtpBytes.Greeting(major: 2, minor: 0), ZmtpBytes.Ready("PUSH")), Outcome.Accepted);

    [Fact]
    public void Greeting_Version40_AcceptedAs31() =>
        // RFC 37 §Version Negotiation: a peer MUST accept higher versions.
        AssertHandled(ZmtpBytes.Concat(ZmtpBytes.Greeting(major: 4, minor: 0), ZmtpBytes.Ready("PUSH")), Outcome.Accepted);

    [Fact]
    public void Greeting_Version30_Accepted() =>
        AssertHandled(ZmtpBytes.Concat(ZmtpBytes.Greeting(minor: 0), ZmtpBytes.Ready("PUSH")), Outcome.Accepted);

    [Theory]
    [InlineData("FOO")]
    [InlineData("GSSAPI")]
    [InlineData("null")]
    public void Greeting_UnknownOrMismatchedMechanism_Closed(string mechanism) =>
        AssertHandled(ZmtpBytes.Greeting(mechanism: mechanism), Outcome.Closed);

    [Theory]
    [InlineData(0x8000000000000000UL)]
    [InlineData(0x4000000000000000UL)]
    [InlineData(0x00000000FFFFFFFFUL)]
    public void LengthPrefix_HugeAfterHandshake_Closed(ulong size) =>
        AssertHandled(ZmtpBytes.LongHeader(size), Outcome.Closed, handshakeFirst: true);

    [Theory]
    [InlineData(0x8000000000000000UL)]
    [InlineData(0x4000000000000000UL)]
    public void LengthPrefix_HugeCommandDuringHandshake_Closed(ulong size) =>
        AssertHandled(ZmtpBytes.Concat(ZmtpBytes.Greeting(), ZmtpBytes.LongHeader(size, ZmtpBytes.FlagCommand)), Outcome.Closed);

    [Theory]
    [InlineData(0x8000000000000000UL, -1L)]
    [InlineData(0x4000000000000000UL, -1L)]
    [InlineData(2UL << 20, -1L)] // beyond our own 1 MiB cap on handshake frames, refused the same way
    [InlineData(101UL, 100L)]
    public void LengthPrefix_RefusedDuringHandshake_DisconnectedWithoutHandshakeEvent(ulong size, long maxMessageSize)
    {
        // A frame libzmq's decoder refuses (beyond MAXMSGSIZE, a top-bit length) is a protocol error of its engine, which
        // raises DISCONNECTED alone.
        var server = Create(SocketType.Pull);
        server.SetOption(SocketOption.Maxmsgsize, maxMessageSize);
        using var monitor = Monitor(server);
        using var peer = RawPeer.Connect(RawPeer.PortOf(BindTcp(server)));

        peer.TrySend(ZmtpBytes.Concat(ZmtpBytes.Greeting(), ZmtpBytes.LongHeader(size, ZmtpBytes.FlagCommand)));

        monitor.AssertClosedWithoutHandshakeEvent();
    }

    [Fact]
    public void LengthPrefix_BeyondMaxmsgsize_Closed() =>
        AssertHandled(ZmtpBytes.Frame(0, new byte[101]), Outcome.Closed, handshakeFirst: true, configure: s => s.SetOption(SocketOption.Maxmsgsize, 100L));

    [Fact]
    public void Handshake_ReadyLargerThanMaxmsgsize_Closed() =>
        // docs/libzmq-behaviour.md L10: MAXMSGSIZE applies to handshake commands too.
        AssertHandled(ZmtpBytes.Concat(ZmtpBytes.Greeting(), ZmtpBytes.Ready("PUSH", ZmtpBytes.Property("X-Pad", new byte[200]))), Outcome.Closed, configure: s => s.SetOption(SocketOption.Maxmsgsize, 100L));

    [Fact]
    public void Handshake_CommandBeforeReady_Closed() =>
        AssertHandled(ZmtpBytes.Concat(ZmtpBytes.Greeting(), ZmtpBytes.Ping(0, default)), Outcome.Closed);

    [Fact]
    public void Handshake_MessageBeforeReady_Closed() =>
        AssertHandled(ZmtpBytes.Concat(ZmtpBytes.Greeting(), ZmtpBytes.Message("early")), Outcome.Closed);

    [Fact]
    public void Handshake_ErrorCommandInsteadOfReady_Closed() =>
        AssertHandled(ZmtpBytes.Concat(ZmtpBytes.Greeting(), ZmtpBytes.Command("ERROR", "\u0003bad"u8)), Outcome.Closed);

    [Fact]
    public void Ready_SentTwice_SecondIgnored() =>
        // docs/libzmq-behaviour.md L11: READY after the handshake is an unknown command there, dropped without closing.
        AssertHandled(ZmtpBytes.Ready("PUSH"), Outcome.Accepted, handshakeFirst: true);

    [Fact]
    public void Command_ZeroLengthDuringHandshake_Closed() =>
        AssertHandled(ZmtpBytes.Concat(ZmtpBytes.Greeting(), [ZmtpBytes.FlagCommand, 0]), Outcome.Closed);

    [Fact]
    public void Command_ZeroLengthAfterHandshake_Ignored() =>
        AssertHandled([ZmtpBytes.FlagCommand, 0], Outcome.Accepted, handshakeFirst: true);

    [Fact]
    public void Command_NameLongerThanBody_Ignored() =>
        AssertHandled([ZmtpBytes.FlagCommand, 2, 200, (byte)'X'], Outcome.Accepted, handshakeFirst: true);

    [Fact]
    public void Metadata_NameOf255Octets_Accepted() =>
        AssertHandled(ZmtpBytes.Concat(ZmtpBytes.Greeting(), ZmtpBytes.Ready("PUSH", ZmtpBytes.Property(new string('X', 255), "v"u8))), Outcome.Accepted);

    [Fact]
    public void Metadata_ValueLengthPastEnd_Closed()
    {
        var property = ZmtpBytes.Property("X-Big", "abc"u8);
        property[1 + 5] = 0x7F; // value length now 0x7F000003, far past the command's end
        AssertHandled(ZmtpBytes.Concat(ZmtpBytes.Greeting(), ZmtpBytes.Ready("PUSH", property)), Outcome.Closed);
    }

    [Fact]
    public void Metadata_ValueLengthTopBitSet_Closed()
    {
        var property = ZmtpBytes.Property("X-Big", "abc"u8);
        property[1 + 5] = 0x80;
        AssertHandled(ZmtpBytes.Concat(ZmtpBytes.Greeting(), ZmtpBytes.Ready("PUSH", property)), Outcome.Closed);
    }

    [Fact]
    public void Metadata_StrayOctetAfterLastProperty_Closed() =>
        // docs/libzmq-behaviour.md L6: a single octet left after the last property is EPROTO in libzmq.
        AssertHandled(ZmtpBytes.Concat(ZmtpBytes.Greeting(), ZmtpBytes.Ready("PUSH", [0x01])), Outcome.Closed);

    [Fact]
    public void Metadata_Oversized2MiB_ServerSurvives() =>
        AssertHandled(ZmtpBytes.Concat(ZmtpBytes.Greeting(), ZmtpBytes.Ready("PUSH", ZmtpBytes.Property("X-Huge", new byte[2 << 20]))), Outcome.Either);

    [Theory]
    [InlineData("BOGUS")]
    [InlineData("PUB")]
    [InlineData("")]
    public void Metadata_BadOrIncompatibleSocketType_Closed(string socketType) =>
        AssertHandled(ZmtpBytes.Concat(ZmtpBytes.Greeting(), ZmtpBytes.Ready(socketType)), Outcome.Closed);

    [Fact]
    public void Frames_TruncatedAtEveryOffset_EachConnectionEndsOnceServerSurvives()
    {
        var guard = InternalErrorsGuard.Start();
        var server = Create(SocketType.Pull);
        using var monitor = Monitor(server);
        string endpoint = BindTcp(server);
        int port = RawPeer.PortOf(endpoint);
        byte[] stream = ZmtpBytes.Concat(
            ZmtpBytes.Greeting(),
            ZmtpBytes.Ready("PUSH"),
            ZmtpBytes.Message("part", more: true),
            ZmtpBytes.Frame(0, new byte[300]));

        for (int cut = 1; cut < stream.Length; cut++)
        {
            var peer = RawPeer.Connect(port);
            peer.Send(stream[..cut]);
            if (cut % 2 == 0)
            {
                peer.Dispose();
            }
            else
            {
                peer.Abort();
            }

            monitor.WaitFor(SocketMonitorEvent.Disconnected);
        }

        // The multipart message was never completed, so nothing may have been delivered.
        server.SetOption(SocketOption.Rcvtimeo, 0);
        Assert.False(server.TryRecvString(out _));
        Assert.Equal(stream.Length - 1, monitor.Count(SocketMonitorEvent.Accepted));
        Assert.Equal(stream.Length - 1, monitor.Count(SocketMonitorEvent.Disconnected));
        AssertServesGoodClient(server, endpoint);
        guard.AssertNoneSince();
    }
}
