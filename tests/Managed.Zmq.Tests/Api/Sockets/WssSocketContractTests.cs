using System.Text.RegularExpressions;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>
/// The socket contract over <c>wss://</c> (ZWS 2.0 over TLS on loopback TCP): every socket of the suite
/// presents one server certificate and trusts its authority, with the name checked, so each socket may
/// bind or connect. The certificates are made once for the class when the tests run.
/// </summary>
public sealed partial class WssSocketContractTests() : SocketContractTests(Transport.Wss)
{
    private const string ServerName = "contract.zmq.test";

    private static readonly Lazy<(string Ca, TestCertificates.Leaf Leaf)> s_certificates = new(() =>
    {
        using var authority = TestCertificates.CreateAuthority();
        return (authority.CaPem, authority.IssueServer(ServerName));
    });

    protected override void ConfigureTransport(Socket socket)
    {
        var (ca, leaf) = s_certificates.Value;
        socket.SetOption(SocketOption.Wss_Cert_Pem, leaf.CertificatePem);
        socket.SetOption(SocketOption.Wss_Key_Pem, leaf.KeyPem);
        socket.SetOption(SocketOption.Wss_Trust_Pem, ca);
        socket.SetOption(SocketOption.Wss_Hostname, ServerName);
    }

    protected override void AssertBoundEndpointFormat(string lastEndpoint)
    {
        var match = WssEndpoint().Match(lastEndpoint);
        Assert.True(match.Success, lastEndpoint);
        Assert.NotEqual(0, int.Parse(match.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture));
    }

    [GeneratedRegex(@"^wss://127\.0\.0\.1:([0-9]+)/contract$")]
    private static partial Regex WssEndpoint();
}
