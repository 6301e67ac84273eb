using System.Text;
using Managed.Zmq.Transports.Ws;

namespace Managed.Zmq.Tests.Transports;

/// <summary>The HTTP upgrade of ws:// (RFC 6455 §4, RFC 45 §Handshake).</summary>
public sealed class WsUpgradeTests
{
    private const string Key = "dGhlIHNhbXBsZSBub25jZQ==";

    private static byte[] Request(string protocolHeader, string connection = "Upgrade", string key = Key) => Encoding.ASCII.GetBytes(
        $"GET /zmq HTTP/1.1\r\nHost: example\r\nUpgrade: websocket\r\nConnection: {connection}\r\n" +
        (key.Length > 0 ? $"Sec-WebSocket-Key: {key}\r\n" : "") + protocolHeader + "Sec-WebSocket-Version: 13\r\n\r\n");

    [Fact]
    public void ComputeAccept_Rfc6455Example_MatchesRfc()
    {
        // RFC 6455 §1.3's worked example.
        Assert.Equal("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", WsUpgrade.ComputeAccept(Key));
    }

    [Fact]
    public void TryAcceptRequest_LibzmqNullOffer_PicksNull()
    {
        // libzmq's client offers "ZWS2.0/NULL,ZWS2.0" for NULL.
        Assert.True(WsUpgrade.TryAcceptRequest(Request("Sec-WebSocket-Protocol: ZWS2.0/NULL,ZWS2.0\r\n"), WsProtocols.Null, out string key));
        Assert.Equal(Key, key);
    }

    [Fact]
    public void TryAcceptRequest_ProtocolInSecondHeaderAndConnectionList_Accepted()
    {
        byte[] request = Request("Sec-WebSocket-Protocol: chat\r\nSec-WebSocket-Protocol: ZWS2.0/PLAIN\r\n", connection: "keep-alive, Upgrade");

        Assert.True(WsUpgrade.TryAcceptRequest(request, WsProtocols.Plain, out _));
    }

    [Theory]
    [InlineData("Sec-WebSocket-Protocol: ZWS2.0/PLAIN\r\n", "Upgrade", Key)] // our mechanism is not offered
    [InlineData("Sec-WebSocket-Protocol: ZWS2.0\r\n", "Upgrade", Key)] // RFC 45's no-mechanism protocol is not spoken here
    [InlineData("Sec-WebSocket-Protocol: ZWS2.0/NULL\r\n", "close", Key)] // not an upgrade
    [InlineData("Sec-WebSocket-Protocol: ZWS2.0/NULL\r\n", "Upgrade", "")] // no key
    [InlineData("", "Upgrade", Key)] // no protocol at all
    public void TryAcceptRequest_NotAZwsUpgradeForUs_Refused(string protocolHeader, string connection, string key)
    {
        Assert.False(WsUpgrade.TryAcceptRequest(Request(protocolHeader, connection, key), WsProtocols.Null, out _));
    }

    [Fact]
    public void TryAcceptRequest_HeaderValueOverLibzmqLimit_Refused()
    {
        byte[] request = Request($"Sec-WebSocket-Protocol: ZWS2.0/NULL\r\nX-Long: {new string('x', WsLimits.MaxHeaderValueLength + 1)}\r\n");

        Assert.False(WsUpgrade.TryAcceptRequest(request, WsProtocols.Null, out _));
    }

    [Fact]
    public void TryAcceptResponse_OurOwnResponse_Accepted_WrongAcceptRefused()
    {
        byte[] response = WsUpgrade.BuildResponse(WsUpgrade.ComputeAccept(Key), WsProtocols.Curve);

        Assert.True(WsUpgrade.TryAcceptResponse(response, Key, WsProtocols.Curve));
        Assert.False(WsUpgrade.TryAcceptResponse(response, "AAAAAAAAAAAAAAAAAAAAAA==", WsProtocols.Curve));
        Assert.False(WsUpgrade.TryAcceptResponse(response, Key, WsProtocols.Null));
    }

    [Fact]
    public void BuildRequest_AsLibzmqWritesIt_HeadersInOrder()
    {
        string request = Encoding.ASCII.GetString(WsUpgrade.BuildRequest("127.0.0.1", "/zmq", Key, WsProtocols.Null));

        Assert.Equal(
            "GET /zmq HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
            $"Sec-WebSocket-Key: {Key}\r\nSec-WebSocket-Protocol: ZWS2.0/NULL\r\nSec-WebSocket-Version: 13\r\n\r\n",
            request);
        Assert.True(WsUpgrade.FindHeadEnd(Encoding.ASCII.GetBytes(request)) == request.Length);
    }
}
