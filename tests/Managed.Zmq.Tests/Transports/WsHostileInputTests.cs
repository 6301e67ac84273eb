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
