using System.Net.Security;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using Managed.Zmq.Options;

namespace Managed.Zmq.Transports.Tls;

/// <summary>
/// What a wss:// listener presents: the certificate chain of Wss_Cert_Pem with the key of Wss_Key_Pem,
/// read once when Bind is called, as libzmq's listener loads them when it is created. Clients are not
/// asked for certificates (libzmq's listener does not ask either).
/// </summary>
internal sealed class TlsServerCredentials
{
    private readonly SslStreamCertificateContext _context;

    private TlsServerCredentials(SslStreamCertificateContext context) => _context = context;

    /// <summary>
    /// The listener's credentials from <paramref name="options"/>; EINVAL when the certificate or key is missing,
    /// does not parse, or they do not belong together. (libzmq aborts the process there; a bad argument from
    /// the caller is an error here.)
    /// </summary>
    public static int TryCreate(SocketOptions options, out TlsServerCredentials? credentials)
    {
        credentials = null;
        string certificatePem = TlsPem.ToText(options.WssCertPem);
        string keyPem = TlsPem.ToText(options.WssKeyPem);
        if (certificatePem.Length == 0 || keyPem.Length == 0)
        {
            return ZmqConstants.EINVAL;
        }

        X509Certificate2 leaf;
        try
        {
            // The first certificate is the leaf; the key must be its key.
            leaf = X509Certificate2.CreateFromPem(certificatePem, keyPem);
        }
        catch (Exception ex) when (ex is CryptographicException or ArgumentException)
        {
            return ZmqConstants.EINVAL;
        }

        var chain = TlsPem.ReadCertificates(certificatePem);
        var intermediates = new X509Certificate2Collection();
        for (int i = 1; i < chain.Count; i++)
        {
            intermediates.Add(chain[i]);
        }

        // offline: the chain is what the caller gave; nothing is fetched from the network.
        credentials = new TlsServerCredentials(SslStreamCertificateContext.Create(leaf, intermediates, offline: true));
        return 0;
    }

    public SslServerAuthenticationOptions CreateOptions() => new()
    {
        ServerCertificateContext = _context,
        ClientCertificateRequired = false,
        CertificateRevocationCheckMode = X509RevocationMode.NoCheck,
    };
}
