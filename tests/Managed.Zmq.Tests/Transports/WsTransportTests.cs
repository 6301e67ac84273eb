using System.Text;
using Managed.Zmq.Tests.Support;
using Managed.Zmq.Transports;
using Managed.Zmq.Transports.Ws;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Transports;

/// <summary>
/// <see cref="WsTransport"/> against a scripted raw WebSocket peer: the upgrade, the ZMTP⇄ZWS
/// translation, masking, control frames, and the input that ends a connection.
/// </summary>
public sealed class WsTransportTests : IDisposable
{
    private const string Key = "dGhlIHNhbXBsZSBub25jZQ==";
    private const uint PeerMask = 0x5A6B7C8D;

    private readonly InMemoryDuplex _duplex = new();

    public void Dispose() => _duplex.Dispose();

    private static byte[] ClientRequest(string protocol) => Encoding.ASCII.GetBytes(
        $"GET /zmq HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {Key}\r\n" +
        $"Sec-WebSocket-Protocol: {protocol}\r\nSec-WebSocket-Version: 13\r\n\r\n");

    /// <summary>A frame as the peer sends it: masked when the peer is a client.</summary>
    private static byte[] Frame(WsOpcode opcode, byte[] payload, bool masked, bool final = true)
    {
        var header = new byte[WsFrame.MaxHeaderLength];
        int length = WsFrame.WriteHeader(header, opcode, payload.Length, masked, PeerMask);
        if (!final)
            header[0] &= 0x7F;
        byte[] body = payload.ToArray();
        if (masked)
            WsFrame.Mask(body, PeerMask, 0);
        return [.. header[..length], .. body];
    }

    /// <summary>Reads one whole frame the transport sent; unmasks it if it is masked.</summary>
    private async Task<(WsFrameHeader Header, byte[] Payload)> ReadFrameAsync()
    {
        byte[] head = await _duplex.Peer.ReadExactlyAsync(2);
        int extra = ((head[1] & 0x7F) == 126 ? 2 : (head[1] & 0x7F) == 127 ? 8 : 0) + ((head[1] & 0x80) != 0 ? 4 : 0);
        byte[] rest = extra > 0 ? await _duplex.Peer.ReadExactlyAsync(extra) : [];
        Assert.Equal(ZmtpStatus.Done, WsFrame.TryReadHeader([.. head, .. rest], out var header));
        byte[] payload = await _duplex.Peer.ReadExactlyAsync((int)header.PayloadLength);
        if (header.Masked)
            WsFrame.Mask(payload, header.MaskKey, 0);
        return (header, payload);
    }

    /// <summary>A server transport after a good upgrade, with the synthesized greeting already read.</summary>
    private async Task<WsTransport> UpgradedServerAsync(ZmtpMechanism mechanism = ZmtpMechanism.Null)
    {
        var transport = WsTransport.ForServer(_duplex.Transport, mechanism);
        await _duplex.Peer.SendAsync(ClientRequest(WsProtocols.For(mechanism)));
        byte[] greeting = await ReadFromTransportAsync(transport, ZmtpGreeting.Length);
        Assert.Equal(ZmtpStatus.Done, ZmtpGreeting.TryParse(greeting, out var peer));
        Assert.Equal(mechanism, peer.Mechanism);
        Assert.True(peer.IsZmtp30); // subscriptions then go as 0x01/0x00 messages (RFC 45)
        string response = Encoding.ASCII.GetString(await _duplex.Peer.ReadExactlyAsync(WsUpgrade.BuildResponse(WsUpgrade.ComputeAccept(Key), WsProtocols.For(mechanism)).Length));
        Assert.Contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n", response, StringComparison.Ordinal);
        return transport;
    }

    private static async Task<byte[]> ReadFromTransportAsync(WsTransport transport, int count)
    {
        var result = new byte[count];
        int filled = 0;
        while (filled < count)
        {
            int read = await transport.ReceiveAsync(result.AsMemory(filled)).AsTask().WaitAsync(TimeSpan.FromSeconds(30));
            Assert.NotEqual(0, read);
            filled += read;
        }

        return result;
    }

    [Fact]
    public async Task Receive_MaskedBinaryFrames_BecomeZmtpFramesWithFlags()
    {
        var transport = await UpgradedServerAsync();

        // 0x01 MORE + "ab", then 0x02 COMMAND + 300 octets (a long ZMTP frame).
        byte[] big = Enumerable.Range(0, 300).Select(i => (byte)i).ToArray();
        await _duplex.Peer.SendAsync([.. Frame(WsOpcode.Binary, [0x01, .. "ab"u8], masked: true), .. Frame(WsOpcode.Binary, [0x02, .. big], masked: true)]);

        Assert.Equal([0x01, 0x02, (byte)'a', (byte)'b'], await ReadFromTransportAsync(transport, 4));
        byte[] header = await ReadFromTransportAsync(transport, ZmtpFrame.MaxHeaderLength);
        Assert.Equal(ZmtpStatus.Done, ZmtpFrame.TryReadHeader(header, out var zmtp));
        Assert.Equal((ZmtpFrameFlags.Command | ZmtpFrameFlags.Long, 300L), (zmtp.Flags, zmtp.BodyLength));
        Assert.Equal(big, await ReadFromTransportAsync(transport, 300));
    }

    [Fact]
    public async Task Receive_StreamLongerThanItsBuffers_EveryFrameArrivesIntact()
    {
        var transport = await UpgradedServerAsync();

        // Far more than the receive buffer's largest size at once, so reads come back full and the buffer grows;
        // 1 KiB frames cut at every buffer end, and one body long enough to be read past the buffer.
        var wire = new List<byte>();
        var expected = new List<byte>();
        var header = new byte[ZmtpFrame.MaxHeaderLength];
        for (int i = 0; i < 600; i++)
        {
            int bodyLength = i == 300 ? 3 * WsLimits.DirectReceiveThreshold : 1023;
            byte[] body = Enumerable.Range(i, bodyLength).Select(b => (byte)b).ToArray();
            byte flags = (byte)(i % 2 == 0 ? 0x01 : 0x00);
            wire.AddRange(Frame(WsOpcode.Binary, [flags, .. body], masked: true));
            int headerLength = ZmtpFrame.WriteHeader(header, bodyLength, WsFrame.FromZwsFlags(flags));
            expected.AddRange(header[..headerLength]);
            expected.AddRange(body);
        }

        Assert.True(wire.Count > 2 * WsLimits.MaxReceiveBufferSize);
        await _duplex.Peer.SendAsync(wire.ToArray());

        Assert.Equal(expected.ToArray(), await ReadFromTransportAsync(transport, expected.Count));
    }

    [Fact]
    public async Task Send_ZmtpFrames_GoOutAsUnmaskedBinaryMessagesAfterTheDroppedGreeting()
    {
        var transport = await UpgradedServerAsync();
        var greeting = new byte[ZmtpGreeting.Length];
        ZmtpGreeting.Write(greeting, ZmtpMechanism.Null, asServer: false);
        var frames = new byte[64];
        int length = ZmtpFrame.WriteHeader(frames, 3, ZmtpFrameFlags.More);
        "xyz"u8.CopyTo(frames.AsSpan(length));
        length += 3;

        await transport.SendAsync(greeting.AsMemory(0, 10));
        await transport.SendAsync(greeting.AsMemory(10));
        await transport.SendAsync(frames.AsMemory(0, length));

        var (header, payload) = await ReadFrameAsync();
        Assert.Equal((true, WsOpcode.Binary, false), (header.Final, header.Opcode, header.Masked));
        Assert.Equal([0x01, .. "xyz"u8], payload);
    }

    [Fact]
    public async Task Send_FramesCutAtEveryOctet_SameMessagesAsSentWhole()
    {
        var transport = await UpgradedServerAsync();
        var greeting = new byte[ZmtpGreeting.Length];
        ZmtpGreeting.Write(greeting, ZmtpMechanism.Null, asServer: false);
        await transport.SendAsync(greeting);

        // A short frame, a long one (9-octet header) and another short one, handed over one octet at a time,
        // so every header arrives in pieces and the octets after each header come with its last piece.
        byte[] longBody = Enumerable.Range(0, 300).Select(i => (byte)i).ToArray();
        var frames = new byte[400];
        int length = ZmtpFrame.WriteHeader(frames, 2, ZmtpFrameFlags.More);
        "ab"u8.CopyTo(frames.AsSpan(length));
        length += 2;
        length += ZmtpFrame.WriteHeader(frames.AsSpan(length), longBody.Length, ZmtpFrameFlags.More);
        longBody.CopyTo(frames.AsSpan(length));
        length += longBody.Length;
        length += ZmtpFrame.WriteHeader(frames.AsSpan(length), 1, ZmtpFrameFlags.None);
        frames[length++] = (byte)'z';
        for (int i = 0; i < length; i++)
        {
            await transport.SendAsync(frames.AsMemory(i, 1));
        }

        Assert.Equal([0x01, .. "ab"u8], (await ReadFrameAsync()).Payload);
        Assert.Equal([0x01, .. longBody], (await ReadFrameAsync()).Payload);
        Assert.Equal([0x00, (byte)'z'], (await ReadFrameAsync()).Payload);
    }

    [Fact]
    public async Task Client_Upgrade_SendsLibzmqRequestAndMasksEveryFrame()
    {
        var transport = WsTransport.ForClient(_duplex.Transport, ZmtpMechanism.Null, "127.0.0.1", "/zmq");
        var frame = new byte[16];
        int length = ZmtpFrame.WriteHeader(frame, 2, ZmtpFrameFlags.Command);
        "hi"u8.CopyTo(frame.AsSpan(length));
        var send = transport.SendAsync(frame.AsMemory(0, length + 2)).AsTask();

        string request = Encoding.ASCII.GetString(await _duplex.Peer.ReadExactlyAsync(WsUpgrade.BuildRequest("127.0.0.1", "/zmq", Key, WsProtocols.Null).Length));
        Assert.StartsWith("GET /zmq HTTP/1.1\r\nHost: 127.0.0.1\r\n", request, StringComparison.Ordinal);
        string key = request.Split("\r\n").Single(line => line.StartsWith("Sec-WebSocket-Key: ", StringComparison.Ordinal))["Sec-WebSocket-Key: ".Length..];
        await _duplex.Peer.SendAsync(WsUpgrade.BuildResponse(WsUpgrade.ComputeAccept(key), WsProtocols.Null));
        await send.WaitAsync(TimeSpan.FromSeconds(30));

        // The bytes sent before the upgrade completed were the start of a ZMTP stream; the first
        // 64 are taken as the greeting, so this test sends a greeting's worth first.
        var (header, payload) = (default(WsFrameHeader), Array.Empty<byte>());
        var greeting = new byte[ZmtpGreeting.Length - (length + 2)];
        await transport.SendAsync(greeting);
        await transport.SendAsync(frame.AsMemory(0, length + 2));
        (header, payload) = await ReadFrameAsync();
        Assert.True(header.Masked);
        Assert.Equal([0x02, .. "hi"u8], payload);
    }

    [Fact]
    public async Task Receive_Ping_AnsweredWithPongEchoingItsData()
    {
        var transport = await UpgradedServerAsync();
        var receive = transport.ReceiveAsync(new byte[16]).AsTask();

        await _duplex.Peer.SendAsync(Frame(WsOpcode.Ping, "are you there"u8.ToArray(), masked: true));

        var (header, payload) = await ReadFrameAsync();
        Assert.Equal((WsOpcode.Pong, false), (header.Opcode, header.Masked));
        Assert.Equal("are you there"u8.ToArray(), payload);
        Assert.False(receive.IsCompleted); // a ping is nothing the engine sees
    }

    [Fact]
    public async Task Receive_PingWhileFrameHalfSent_PongFollowsTheWholeFrame()
    {
        var transport = await UpgradedServerAsync();
        await transport.SendAsync(new byte[ZmtpGreeting.Length]);
        var frame = new byte[ZmtpFrame.MaxHeaderLength + 1000];
        int header = ZmtpFrame.WriteHeader(frame, 1000, ZmtpFrameFlags.None);
        frame.AsSpan(header).Fill(0x5A);
        await transport.SendAsync(frame.AsMemory(0, header + 10));

        // A ping, then a message: once the message is read, the ping has been handled (in order).
        await _duplex.Peer.SendAsync([.. Frame(WsOpcode.Ping, [7], masked: true), .. Frame(WsOpcode.Binary, [0x00, 1], masked: true)]);
        Assert.Equal([0x00, 0x01, 0x01], await ReadFromTransportAsync(transport, 3));
        // A send that still ends inside the frame must not let the pong in.
        await transport.SendAsync(frame.AsMemory(header + 10, 500));
        await transport.SendAsync(frame.AsMemory(header + 510, 490));

        var (first, payload) = await ReadFrameAsync();
        Assert.Equal((WsOpcode.Binary, 1001L), (first.Opcode, first.PayloadLength));
        Assert.Equal([0x00, .. Enumerable.Repeat((byte)0x5A, 1000)], payload);
        var (second, echoed) = await ReadFrameAsync();
        Assert.Equal(WsOpcode.Pong, second.Opcode);
        Assert.Equal([7], echoed);
    }

    [Fact]
    public async Task Receive_Pong_ReachesEngineAsZmtpPong()
    {
        var transport = await UpgradedServerAsync();

        await _duplex.Peer.SendAsync(Frame(WsOpcode.Pong, [], masked: true));

        var pong = new byte[ZmtpHeartbeat.GetPongFrameLength(0)];
        ZmtpHeartbeat.WritePong(pong, default);
        Assert.Equal(pong, await ReadFromTransportAsync(transport, pong.Length));
    }

    [Fact]
    public async Task TrySendPing_AfterUpgrade_SendsEmptyPingFrame()
    {
        var transport = await UpgradedServerAsync(ZmtpMechanism.Curve);

        Assert.True(transport.TrySendPing());

        // FIN + ping, unmasked, no payload: the whole frame is two octets.
        Assert.Equal([0x89, 0x00], await _duplex.Peer.ReadExactlyAsync(2));
    }

    [Fact]
    public async Task Receive_PingAndPongUnderCurve_CountAsKeepAlivesAndGiveEngineNoBytes()
    {
        // Under CURVE the engine can read no plaintext PONG: the pong only counts, as libzmq's ws engine counts it.
        var transport = await UpgradedServerAsync(ZmtpMechanism.Curve);
        Assert.Equal(0, transport.KeepAlivesReceived);

        await _duplex.Peer.SendAsync([.. Frame(WsOpcode.Ping, [], masked: true), .. Frame(WsOpcode.Pong, [], masked: true), .. Frame(WsOpcode.Binary, [0x00, 9], masked: true)]);

        Assert.Equal([0x00, 0x01, 0x09], await ReadFromTransportAsync(transport, 3));
        Assert.Equal(2, transport.KeepAlivesReceived);
    }

    [Fact]
    public async Task Receive_Close_EchoedAndStreamEnds()
    {
        var transport = await UpgradedServerAsync();

        await _duplex.Peer.SendAsync(Frame(WsOpcode.Close, [0x03, 0xE8], masked: true));

        Assert.Equal(0, await transport.ReceiveAsync(new byte[16]).AsTask().WaitAsync(TimeSpan.FromSeconds(30)));
        var (header, payload) = await ReadFrameAsync();
        Assert.Equal(WsOpcode.Close, header.Opcode);
        Assert.Equal([0x03, 0xE8], payload);
    }

    public static TheoryData<string, byte[]> BrokenInput => new()
    {
        { "fragmented binary (libzmq refuses fragments)", Frame(WsOpcode.Binary, [0x00, 1, 2], masked: true, final: false) },
        { "unmasked frame from a client", Frame(WsOpcode.Binary, [0x00, 1], masked: false) },
        { "text frame", Frame(WsOpcode.Text, [0x00, 1], masked: true) },
        { "continuation without a start", Frame(WsOpcode.Continuation, [0x00, 1], masked: true) },
        { "empty binary message (no flags octet)", Frame(WsOpcode.Binary, [], masked: true) },
        { "ping over 125 octets", [0x89, 0xFE, 0x00, 0x7E, 0, 0, 0, 0] },
    };

    [Theory, MemberData(nameof(BrokenInput))]
    public async Task Receive_BrokenFrame_EndsConnectionWithWsProtocolError(string what, byte[] bytes)
    {
        _ = what;
        var transport = await UpgradedServerAsync();

        await _duplex.Peer.SendAsync(bytes);

        var error = await Assert.ThrowsAsync<TransportProtocolException>(() => transport.ReceiveAsync(new byte[64]).AsTask().WaitAsync(TimeSpan.FromSeconds(30)));
        Assert.Equal(ZmqConstants.ZMQ_PROTOCOL_ERROR_WS_UNSPECIFIED, error.ProtocolError);
    }

    [Fact]
    public async Task Upgrade_WrongMechanismOffered_RefusedWithWsProtocolError()
    {
        var transport = WsTransport.ForServer(_duplex.Transport, ZmtpMechanism.Curve);

        await _duplex.Peer.SendAsync(ClientRequest(WsProtocols.Null));

        var error = await Assert.ThrowsAsync<TransportProtocolException>(() => transport.ReceiveAsync(new byte[64]).AsTask().WaitAsync(TimeSpan.FromSeconds(30)));
        Assert.Equal(ZmqConstants.ZMQ_PROTOCOL_ERROR_WS_UNSPECIFIED, error.ProtocolError);
    }

    [Fact]
    public async Task Upgrade_HeadWithoutEnd_RefusedAtLimitInsteadOfGrowing()
    {
        var transport = WsTransport.ForServer(_duplex.Transport, ZmtpMechanism.Null);
        var receive = transport.ReceiveAsync(new byte[64]).AsTask();

        await _duplex.Peer.SendAsync(Encoding.ASCII.GetBytes("GET / HTTP/1.1\r\n" + new string('x', WsLimits.MaxHttpHeadLength)));

        await Assert.ThrowsAsync<TransportProtocolException>(() => receive.WaitAsync(TimeSpan.FromSeconds(30)));
    }
}
