using System.Net.Security;
using System.Security.Cryptography.X509Certificates;
using Managed.Zmq.Options;

namespace Managed.Zmq.Transports.Tls;

/// <summary>
/// How a wss:// client judges the server, as libzmq's wss engine does: the server's chain must end in a
/// root of Wss_Trust_Pem, or of the system's store when Wss_Trust_System is 1; with neither, nothing is
/// trusted and every handshake fails. Wss_Hostname, when set, is sent as the server name (SNI) and must
/// match the certificate; when it is not set, the names in the certificate are not checked (libzmq checks
/// none then either; the endpoint's host is not used). Read once when Connect is called, as libzmq's
/// session keeps the options of its connect.
/// </summary>
internal sealed class TlsClientTrust
{
    private readonly X509Certificate2Collection _roots;
    private readonly bool _trustSystem;
    private readonly string _hostname;

    private TlsClientTrust(X509Certificate2Collection roots, bool trustSystem, string hostname)
    {
        _roots = roots;
        _trustSystem = trustSystem;
        _hostname = hostname;
    }

    /// <summary>The client's trust from <paramref name="options"/>; EINVAL when Wss_Trust_Pem is set but holds no certificate.</summary>
    public static int TryCreate(SocketOptions options, out TlsClientTrust? trust)
    {
        trust = null;
        string trustPem = TlsPem.ToText(options.WssTrustPem);
        var roots = trustPem.Length == 0 ? [] : TlsPem.ReadCertificates(trustPem);
        if (trustPem.Length != 0 && roots.Count == 0)
        {
            // libzmq asserts on a trust list its TLS library cannot read.
            return ZmqConstants.EINVAL;
        }

        trust = new TlsClientTrust(roots, options.WssTrustSystem, TlsPem.ToText(options.WssHostname));
        return 0;
    }

    public SslClientAuthenticationOptions CreateOptions() => new()
    {
        // An empty target host sends no server name, as libzmq without Wss_Hostname.
        TargetHost = _hostname,
        CertificateRevocationCheckMode = X509RevocationMode.NoCheck,
        RemoteCertificateValidationCallback = Validate,

        // libzmq's wss engine refuses a renegotiation with an alert.
        AllowRenegotiation = false,
    };

    private bool Validate(object sender, X509Certificate? certificate, X509Chain? chain, SslPolicyErrors errors)
    {
        if (certificate is null || (errors & SslPolicyErrors.RemoteCertificateNotAvailable) != 0)
        {
            return false;
        }

        if (_hostname.Length != 0 && (errors & SslPolicyErrors.RemoteCertificateNameMismatch) != 0)
        {
            return false;
        }

        // The runtime built the chain against the system's roots.
        if (_trustSystem && (errors & SslPolicyErrors.RemoteCertificateChainErrors) == 0)
        {
            return true;
        }

        return _roots.Count != 0 && ChainsToRoots(certificate, chain);
    }

    private bool ChainsToRoots(X509Certificate certificate, X509Chain? received)
    {
        using var chain = new X509Chain();
        chain.ChainPolicy.TrustMode = X509ChainTrustMode.CustomRootTrust;
        chain.ChainPolicy.CustomTrustStore.AddRange(_roots);
        chain.ChainPolicy.RevocationMode = X509RevocationMode.NoCheck;
        chain.ChainPolicy.DisableCertificateDownloads = true;
        if (received is not null)
        {
            // The intermediates the server sent.
            chain.ChainPolicy.ExtraStore.AddRange(received.ChainPolicy.ExtraStore);
        }

        // The runtime hands the callback an X509Certificate2.
        return certificate is X509Certificate2 leaf && chain.Build(leaf);
    }
}
