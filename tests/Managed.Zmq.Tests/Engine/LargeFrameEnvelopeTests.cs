using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// A large frame leaves from its own buffer with its header written in the room in front of it (docs/ARCHITECTURE.md).
/// The small frames of its own message before it (an envelope: REQ's delimiter, a DEALER's empty frame) go in that
/// room too, so the whole message leaves in one system call, from the user thread's direct write or the write loop.
/// </summary>
public sealed class LargeFrameEnvelopeTests : TransportSockets
{
    private const int Large = 64 * 1024;

    /// <summary>
    /// A send buffer the counting tests set on both ends, so that however small the machine's default is, a message
    /// sent into an empty buffer (one round trip at a time) is never cut, and each send is one call.
    /// </summary>
    private const int RoomyBuffer = 1024 * 1024;

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Send_RequestsAndRepliesWithLargeBodies_OneSystemCallPerMessage(Transport transport)
    {
        var rep = Create(SocketType.Rep);
        var req = Create(SocketType.Req);
        rep.SetOption(SocketOption.Sndbuf, RoomyBuffer);
        req.SetOption(SocketOption.Sndbuf, RoomyBuffer);
        string endpoint = TestEndpoint.Bind(rep, transport);
        using var sends = new ConnectionSends(endpoint);
        req.Connect(endpoint);
        RoundTrip(req, rep, 0);
        Assert.Equal(2, sends.Count);
        long before = sends.Calls;

        const int rounds = 20;
        for (int i = 1; i <= rounds; i++)
        {
            RoundTrip(req, rep, i);
        }

        Assert.Equal(2 * rounds, sends.Calls - before);
    }

    /// <summary>
    /// A ZMTP 3.0 peer takes no direct write (its commands need converting), so the write loop sends these; an envelope
    /// too long for the room goes first, in a call of its own. Every message arrives whole either way.
    /// </summary>
    [Theory]
    [InlineData(0, 1)]
    [InlineData(1, 1)]
    [InlineData(53, 1)]
    [InlineData(54, 2)]
    [InlineData(300, 2)]
    public void Send_EnvelopeThenLargeFrameToZmtp30Peer_WholeInTheCallsTheRoomAllows(int envelopeSize, int callsPerMessage)
    {
        using var listener = new RawListener();
        using var sends = new ConnectionSends(listener.Endpoint);
        var dealer = Create(SocketType.Dealer);
        dealer.SetOption(SocketOption.Sndbuf, RoomyBuffer);
        dealer.Connect(listener.Endpoint);
        using var peer = listener.Accept();
        peer.CompleteNullHandshake("ROUTER", minor: 0);
        long before = sends.Calls;

        const int messages = 10;
        for (int i = 0; i < messages; i++)
        {
            byte[] envelope = Bytes.Pattern(envelopeSize, i);
            byte[] body = Bytes.Pattern(Large + i, i);
            dealer.Send(envelope, SendFlags.SendMore);
            dealer.Send(body);

            var (flags, received) = peer.ReadFrame();
            Assert.Equal(ZmtpBytes.FlagMore, flags & ZmtpBytes.FlagMore);
            Assert.Equal(envelope, received);
            (flags, received) = peer.ReadFrame();
            Assert.Equal(0, flags & ZmtpBytes.FlagMore);
            Assert.Equal(body, received);
        }

        Assert.Equal(1, sends.Count);
        Assert.Equal(messages * callsPerMessage, sends.Calls - before);
    }

    /// <summary>
    /// A direct write cut anywhere (by a limit on what it offers the kernel: nothing, inside the envelope, at its end,
    /// inside the header, inside the body) leaves the rest to the write loop, and every message arrives whole and in
    /// order, a frame after the large one too.
    /// </summary>
    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Send_DirectWriteCutAnywhere_EveryMessageArrivesWholeAndInOrder(Transport transport)
    {
        var router = Create(SocketType.Router);
        var dealer = Create(SocketType.Dealer);
        string endpoint = TestEndpoint.Bind(router, transport);
        using var sends = new ConnectionSends(endpoint);
        dealer.Connect(endpoint);
        dealer.Send("warm");
        byte[] id = router.RecvBytes();
        Assert.Equal("warm", router.RecvString());

        int i = 0;
        foreach (int envelopeSize in new[] { 0, 1, 5, 40 })
        {
            for (int limit = 0; limit < 70; limit++)
            {
                i++;
                byte[] envelope = Bytes.Pattern(envelopeSize, i);
                byte[] body = Bytes.Pattern(Large + i, i);
                bool tail = i % 3 == 0;
                dealer.Send($"q{i}");
                Assert.Equal(id, router.RecvBytes());
                Assert.Equal($"q{i}", router.RecvString());

                sends.LimitDirectWrites(limit);
                router.Send(id, SendFlags.SendMore);
                router.Send(envelope, SendFlags.SendMore);
                router.Send(body, tail ? SendFlags.SendMore : SendFlags.None);
                if (tail)
                {
                    router.Send($"z{i}");
                }

                sends.LimitDirectWrites(int.MaxValue);
                Assert.Equal(envelope, dealer.RecvBytes());
                Assert.Equal(body, dealer.RecvBytes());
                if (tail)
                {
                    Assert.Equal($"z{i}", dealer.RecvString());
                }

                Assert.False(dealer.HasMore);
            }
        }
    }

    /// <summary>
    /// One payload goes to several peers at once, each writing the same header and envelope into its room: every
    /// subscriber receives every message whole.
    /// </summary>
    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Send_TopicAndLargeBodyToSeveralSubscribers_EachReceivesEveryMessageWhole(Transport transport)
    {
        var publisher = Create(SocketType.XPub);
        publisher.SetOption(SocketOption.Xpub_Verbose, 1);
        string endpoint = TestEndpoint.Bind(publisher, transport);
        var subscribers = new List<Socket>();
        for (int i = 0; i < 3; i++)
        {
            var subscriber = Create(SocketType.Sub);
            subscriber.Subscribe("t");
            subscriber.Connect(endpoint);
            subscribers.Add(subscriber);
        }

        // A verbose XPUB passes on every subscription, duplicates too: one each, then all three are in.
        for (int i = 0; i < subscribers.Count; i++)
        {
            Assert.Equal(Bytes.Of("\u0001t"), publisher.RecvBytes());
        }

        const int messages = 30;
        for (int i = 0; i < messages; i++)
        {
            publisher.Send(Bytes.Of("t"), SendFlags.SendMore);
            publisher.Send(Bytes.Pattern(Large + i, i));
        }

        foreach (var subscriber in subscribers)
        {
            for (int i = 0; i < messages; i++)
            {
                Assert.Equal("t", subscriber.RecvString());
                Assert.Equal(Bytes.Pattern(Large + i, i), subscriber.RecvBytes());
            }
        }
    }

    private static void RoundTrip(Socket req, Socket rep, int i)
    {
        byte[] request = Bytes.Pattern(Large + i, i);
        byte[] reply = Bytes.Pattern(Large + i + 1, i + 1);
        req.Send(request);
        Assert.Equal(request, rep.RecvBytes());
        rep.Send(reply);
        Assert.Equal(reply, req.RecvBytes());
    }
}
