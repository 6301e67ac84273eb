using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;

namespace Managed.Zmq.Tests.Support;

/// <summary>
/// Certificates made when a test runs (nothing secret is committed): a self-signed CA, and leaves
/// it signs, as PEM text for the Wss_* options. ECDSA P-256 keeps generation quick.
/// </summary>
internal sealed class TestCertificates : IDisposable
{
    private readonly ECDsa _caKey;

    private TestCertificates(ECDsa caKey, X509Certificate2 ca)
    {
        _caKey = caKey;
        Ca = ca;
    }

    public X509Certificate2 Ca { get; }

    /// <summary>The CA's certificate, for Wss_Trust_Pem.</summary>
    public string CaPem => Ca.ExportCertificatePem();

    public static TestCertificates CreateAuthority(string name = "Managed.Zmq test CA")
    {
        var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var request = new CertificateRequest($"CN={name}", key, HashAlgorithmName.SHA256);
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(true, false, 0, true));
        request.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.KeyCertSign | X509KeyUsageFlags.CrlSign, true));
        request.CertificateExtensions.Add(new X509SubjectKeyIdentifierExtension(request.PublicKey, false));
        var now = DateTimeOffset.UtcNow;
        return new TestCertificates(key, request.CreateSelfSigned(now.AddDays(-1), now.AddDays(30)));
    }

    /// <summary>An intermediate CA signed by this one (its PEM goes after a leaf in Wss_Cert_Pem).</summary>
    public TestCertificates IssueIntermediate(string name = "Managed.Zmq test intermediate CA")
    {
        var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
        var request = new CertificateRequest($"CN={name}", key, HashAlgorithmName.SHA256);
        request.CertificateExtensions.Add(new X509BasicConstraintsExtension(true, false, 0, true));
        request.CertificateExtensions.Add(new X509KeyUsageExtension(X509KeyUsageFlags.KeyCertSign | X509KeyUsageFlags.CrlSign, true));
        request.CertificateExtensions.Add(new X509SubjectKeyIdentifierExtension(request.PublicKey, false));
        var now = DateTimeOffset.UtcNow;
        using var issued = request.Create(Ca.SubjectName, X509SignatureGenerator.CreateForECDsa(_caKey), now.AddDays(-1), now.AddDays(20), [7, 7, 7, 7]);
        return new TestCertificates(key, issued.CopyWithPrivateKey(key));
    }

    /// <summary>A server certificate for <paramref name="dnsName"/> signed by this CA.</summary>
    public Leaf IssueServer(string dnsName, bool expired = false)
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
        var (notBefore, notAfter) = expired ? (now.AddDays(-10), now.AddDays(-2)) : (now.AddDays(-1), now.AddDays(10));
        byte[] serial = new byte[8];
        RandomNumberGenerator.Fill(serial);
        serial[0] &= 0x7F;
        using var issued = request.Create(Ca.SubjectName, X509SignatureGenerator.CreateForECDsa(_caKey), notBefore, notAfter, serial);
        return new Leaf(issued.ExportCertificatePem(), key.ExportPkcs8PrivateKeyPem());
    }

    public void Dispose()
    {
        _caKey.Dispose();
        Ca.Dispose();
    }

    /// <summary>A leaf's certificate and key, as PEM.</summary>
    internal sealed record Leaf(string CertificatePem, string KeyPem);
}
