using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace Managed.Zmq.InteropTests.Ws;

/// <summary>
/// A certificate authority made when the test runs (nothing secret is committed) and server
/// certificates it signs, as the PEM text both libraries take in ZMQ_WSS_*_PEM. ECDSA P-256: quick
/// to make, and GnuTLS (libzmq's TLS library here) and .NET both speak it.
/// </summary>
internal sealed class WssCertificates : IDisposable
{
    private readonly ECDsa _caKey;
    private readonly X509Certificate2 _ca;

    public WssCertificates(string name = "Managed.Zmq interop CA")
    {
        _caKey = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var request = new CertificateRequest($"CN={name}", _caKey, HashAlgorithmName.SHA256);
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(true, false, 0, true));
        request.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.KeyCertSign | X509KeyUsageFlags.CrlSign, true));
        request.CertificateExtensions.Add(new X509SubjectKeyIdentifierExtension(request.PublicKey, false));
        var now = DateTimeOffset.UtcNow;
        _ca = request.CreateSelfSigned(now.AddDays(-1), now.AddDays(30));
    }

    /// <summary>The authority's certificate, for ZMQ_WSS_TRUST_PEM.</summary>
    public string CaPem => _ca.ExportCertificatePem();

    /// <summary>A server certificate and its PKCS#8 key for <paramref name="dnsName"/>, signed by this authority.</summary>
    public (string CertificatePem, string KeyPem) IssueServer(string dnsName)
    {
        using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var request = new CertificateRequest($"CN={dnsName}", key, HashAlgorithmName.SHA256);
        var names = new SubjectAlternativeNameBuilder();
        names.AddDnsName(dnsName);
        request.CertificateExtensions.Add(names.Build());
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(false, false, 0, false));
        request.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.DigitalSignature, false));
        request.CertificateExtensions.Add(new X509EnhancedKeyUsageExtension([new Oid("1.3.6.1.5.5.7.3.1")], false));
        var now = DateTimeOffset.UtcNow;
        byte[] serial = new byte[8];
        RandomNumberGenerator.Fill(serial);
        serial[0] &= 0x7F;
        using var issued = request.Create(_ca.SubjectName, X509SignatureGenerator.CreateForECDsa(_caKey), now.AddDays(-1), now.AddDays(10), serial);
        return (issued.ExportCertificatePem(), key.ExportPkcs8PrivateKeyPem());
    }

    public void Dispose()
    {
        _caKey.Dispose();
        _ca.Dispose();
    }
}
