using System.Net;
using System.Net.Sockets;
using System.Text;

using Managed.Zmq.Transports.Ws;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Transports;

/// <summary>
/// Bad input on a ws:// listener ends only that connection, with the monitor event libzmq's ws
/// engine raises; the listener and its other connections carry on.
/// </summary>
public sealed class WsHostileInputTests : ResilienceFixture
{
    private const string Key = "dGhlIHNhbXBsZSBub25jZQ==";

    private static System.Net.Sockets.Socket RawConnect(string endpoint)
    {
        var uri = endpoint["ws://".Length..];
        var hostPort = uri[..uri.IndexOf('/', StringComparison.Ordinal)];
        int port = int.Parse(hostPort[(hostPort.LastIndexOf(':') + 1)..], System.Globalization.CultureInfo.InvariantCulture);
        var raw = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp) { ReceiveTimeout = Timeout };
        raw.Connect(new IPEndPoint(IPAddress.Loopback, port));
        return raw;
    }

    private void AssertStillServes(Socket pull, string endpoint)
    {
        using var push = new Socket(Context, SocketType.Push);
        push.SetOption(SocketOption.Linger, 0);
        push.Connect(endpoint);
        push.Send("still here");
        Assert.Equal("still here", pull.RecvString());
    }

    [Fact]
    public void Upgrade_NotHttp_HandshakeFailedProtocolWsUnspecified_ListenerServesOthers()
    {
        var pull = Create(SocketType.Pull);
        pull.SetOption(SocketOption.Rcvtimeo, Timeout);
        var monitor = Monitor(pull);
        pull.Bind("ws://127.0.0.1:*/zmq");
        string endpoint = pull.GetOptionString(SocketOption.Last_Endpoint);

        using (var raw = RawConnect(endpoint))
        {
            raw.Send(Encoding.ASCII.GetBytes("POST / HTTP/1.0\r\n\r\n"));
            var failed = monitor.WaitFor(MonitorProbe.HandshakeFailedProtocol);
            Assert.Equal(ZmqConstants.ZMQ_PROTOCOL_ERROR_WS_UNSPECIFIED, failed.Value);
            monitor.WaitFor(SocketMonitorEvent.Disconnected);
        }

        AssertStillServes(pull, endpoint);
    }

    [Fact]
    public void Frame_BeyondMaxmsgsize_ConnectionDropped_ListenerServesOthers()
    {
        var pull = Create(SocketType.Pull);
        pull.SetOption(SocketOption.Rcvtimeo, Timeout);
        pull.SetOption(SocketOption.Maxmsgsize, 100L);
        var monitor = Monitor(pull);
        pull.Bind("ws://127.0.0.1:*/zmq");
        string endpoint = pull.GetOptionString(SocketOption.Last_Endpoint);

        using (var raw = RawConnect(endpoint))
        {
            // A well-behaved upgrade and NULL handshake, then a 101-octet message.
            raw.Send(Encoding.ASCII.GetBytes(
                "GET /zmq HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
                $"Sec-WebSocket-Key: {Key}\r\nSec-WebSocket-Protocol: {WsProtocols.Null}\r\nSec-WebSocket-Version: 13\r\n\r\n"));
            var ready = new byte[64];
            int readyLength = ZmtpReady.WriteFrame(ready, SocketType.Push, default);
            raw.Send(MaskedBinary(ready.AsSpan(0, readyLength)));
            monitor.WaitFor(MonitorProbe.HandshakeSucceeded);

            var oversized = new byte[ZmtpFrame.ShortHeaderLength + 101];
            ZmtpFrame.WriteHeader(oversized, 101, ZmtpFrameFlags.None);
            raw.Send(MaskedBinary(oversized));
            monitor.WaitFor(SocketMonitorEvent.Disconnected);
        }

        AssertStillServes(pull, endpoint);
    }

    [Fact]
    public void Stream_OverWs_ConnectionClosedNotPassedAsData()
    {
        // Raw bytes have no ZWS framing (libzmq's STREAM over ws fails its handshake as well).
        var stream = Create(SocketType.Stream);
        var monitor = Monitor(stream);
        stream.Bind("ws://127.0.0.1:*/zmq");
        string endpoint = stream.GetOptionString(SocketOption.Last_Endpoint);

        using var raw = RawConnect(endpoint);
        raw.Send(Encoding.ASCII.GetBytes("GET /zmq HTTP/1.1\r\n\r\n"));

        monitor.WaitFor(SocketMonitorEvent.Disconnected);
        Assert.Equal(0, raw.Receive(new byte[16]));
    }

    [Theory]
    [InlineData(new byte[] { 0x82, 127, 0x80, 0, 0, 0, 0, 0, 0, 0 })] // a 64-bit length with its top bit set
    [InlineData(new byte[] { 0x81, 2, 0x00, 0x41 })] // a text frame
    [InlineData(new byte[] { 0x82, 0x82, 1, 2, 3, 4, 0x01, 0x43 })] // masked, from a server
    public void Connect_FramingErrorAfterHandshake_ConnectionEndsAndIsNotRetried(byte[] badFrame)
    {
        // libzmq's ws engine takes a framing error as a protocol error: the session ends and is not reconnected
        // (docs/libzmq-behaviour.md L15), where a lost connection would be.
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var push = Create(SocketType.Push);
        push.SetOption(SocketOption.Reconnect_Ivl, 1);
        var monitor = Monitor(push);
        push.Connect($"ws://127.0.0.1:{((IPEndPoint)listener.LocalEndpoint).Port}/zmq");

        using (var raw = AcceptUpgrade(listener))
        {
            var ready = new byte[64];
            int readyLength = ZmtpReady.WriteFrame(ready, SocketType.Pull, default);
            raw.Send(Unmasked(ready.AsSpan(0, readyLength)));
            monitor.WaitFor(MonitorProbe.HandshakeSucceeded);

            raw.Send(badFrame);
            monitor.WaitFor(SocketMonitorEvent.Disconnected);
        }

        // A retry would come within a millisecond or two (Reconnect_Ivl 1): a quiet spell shows there is none.
        monitor.Drain(300);
        Assert.Equal(0, monitor.Count(SocketMonitorEvent.ConnectRetried));
        Assert.False(listener.Pending(), "the socket connected again after a framing error");
    }

    /// <summary>Accepts the client's connection and answers its upgrade request for ZWS over NULL.</summary>
    private static System.Net.Sockets.Socket AcceptUpgrade(TcpListener listener)
    {
        Assert.True(listener.Server.Poll(Timeout * 1000, SelectMode.SelectRead), "the ws client never connected");
        var raw = listener.AcceptSocket();
        raw.ReceiveTimeout = Timeout;
        var head = new List<byte>();
        var one = new byte[1];
        while (!System.Runtime.InteropServices.CollectionsMarshal.AsSpan(head).EndsWith("\r\n\r\n"u8))
        {
            Assert.Equal(1, raw.Receive(one));
            head.Add(one[0]);
        }

        string request = Encoding.ASCII.GetString([.. head]);
        string key = request.Split("\r\n")
            .First(line => line.StartsWith("Sec-WebSocket-Key:", StringComparison.OrdinalIgnoreCase))["Sec-WebSocket-Key:".Length..]
            .Trim();
        raw.Send(WsUpgrade.BuildResponse(WsUpgrade.ComputeAccept(key), WsProtocols.Null));
        return raw;
    }

    /// <summary>An unmasked ZWS message (a server's) made from one whole ZMTP frame.</summary>
    private static byte[] Unmasked(ReadOnlySpan<byte> zmtpFrame)
    {
        Assert.Equal(ZmtpStatus.Done, ZmtpFrame.TryReadFrame(zmtpFrame, out var header, out var body));
        var head = new byte[WsFrame.MaxHeaderLength];
        int length = WsFrame.WriteHeader(head, WsOpcode.Binary, body.Length + 1, masked: false, 0);
        return [.. head[..length], WsFrame.ToZwsFlags(header.Flags), .. body];
    }

    /// <summary>A masked ZWS message made from one whole ZMTP frame (header and body).</summary>
    private static byte[] MaskedBinary(ReadOnlySpan<byte> zmtpFrame)
    {
        Assert.Equal(ZmtpStatus.Done, ZmtpFrame.TryReadFrame(zmtpFrame, out var header, out var body));
        var head = new byte[WsFrame.MaxHeaderLength];
        const uint mask = 0x01020304;
        int length = WsFrame.WriteHeader(head, WsOpcode.Binary, body.Length + 1, masked: true, mask);
        byte[] payload = [WsFrame.ToZwsFlags(header.Flags), .. body];
        WsFrame.Mask(payload, mask, 0);
        return [.. head[..length], .. payload];
    }
}
