using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Transports;

/// <summary>The wss options refused as libzmq refuses them (EINVAL) and kept write-only as in libzmq.</summary>
public sealed partial class WssTransportTests
{
    [Fact]
    public void Bind_WithoutCertificateOrKey_FailsWithEinval()
    {
        var withNothing = Open(SocketType.Rep);
        var withCertificateOnly = Open(SocketType.Rep);
        var withKeyOnly = Open(SocketType.Rep);
        var leaf = _authority.IssueServer(ServerName);
        withCertificateOnly.SetOption(SocketOption.Wss_Cert_Pem, leaf.CertificatePem);
        withKeyOnly.SetOption(SocketOption.Wss_Key_Pem, leaf.KeyPem);

        foreach (var socket in new[] { withNothing, withCertificateOnly, withKeyOnly })
        {
            var error = Assert.Throws<ZmqException>(() => socket.Bind("wss://127.0.0.1:*/zmq"));
            Assert.Equal(ZmqConstants.EINVAL, error.ErrorNumber);
        }
    }

    [Fact]
    public void Bind_KeyOfAnotherCertificate_FailsWithEinval()
    {
        var socket = Open(SocketType.Rep);
        socket.SetOption(SocketOption.Wss_Cert_Pem, _authority.IssueServer(ServerName).CertificatePem);
        socket.SetOption(SocketOption.Wss_Key_Pem, _authority.IssueServer(ServerName).KeyPem);

        var error = Assert.Throws<ZmqException>(() => socket.Bind("wss://127.0.0.1:*/zmq"));

        Assert.Equal(ZmqConstants.EINVAL, error.ErrorNumber);
    }

    [Fact]
    public void Bind_UnreadablePem_FailsWithEinval()
    {
        var socket = Open(SocketType.Rep);
        socket.SetOption(SocketOption.Wss_Cert_Pem, "-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n");
        socket.SetOption(SocketOption.Wss_Key_Pem, "junk");

        var error = Assert.Throws<ZmqException>(() => socket.Bind("wss://127.0.0.1:*/zmq"));

        Assert.Equal(ZmqConstants.EINVAL, error.ErrorNumber);
    }

    [Fact]
    public void Connect_UnreadableTrustPem_FailsWithEinval()
    {
        var socket = Open(SocketType.Req);
        socket.SetOption(SocketOption.Wss_Trust_Pem, "no certificate here");

        var error = Assert.Throws<ZmqException>(() => socket.Connect("wss://127.0.0.1:5555/zmq"));

        Assert.Equal(ZmqConstants.EINVAL, error.ErrorNumber);
    }

    [Theory]
    [InlineData(SocketOption.Wss_Key_Pem)]
    [InlineData(SocketOption.Wss_Cert_Pem)]
    [InlineData(SocketOption.Wss_Trust_Pem)]
    [InlineData(SocketOption.Wss_Hostname)]
    [InlineData(SocketOption.Wss_Trust_System)]
    public void GetOption_WssOptions_AreWriteOnlyAsLibzmq(SocketOption option)
    {
        var socket = Open(SocketType.Req);

        var error = Assert.Throws<ZmqException>(() => socket.GetOption(option, new byte[4096]));

        Assert.Equal(ZmqConstants.EINVAL, error.ErrorNumber);
    }

    [Theory]
    [InlineData(-1)]
    [InlineData(2)]
    public void SetOption_TrustSystemNotZeroOrOne_FailsWithEinval(int value)
    {
        var socket = Open(SocketType.Req);

        var error = Assert.Throws<ZmqException>(() => socket.SetOption(SocketOption.Wss_Trust_System, value));

        Assert.Equal(ZmqConstants.EINVAL, error.ErrorNumber);
    }
}
