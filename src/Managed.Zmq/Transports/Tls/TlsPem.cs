using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using System.Text;

namespace Managed.Zmq.Transports.Tls;

/// <summary>PEM text from the wss:// options, as libzmq hands it to its TLS library.</summary>
internal static class TlsPem
{
    /// <summary>
    /// The option's bytes as text. libzmq passes the value as a C string, so a trailing NUL (as C callers
    /// often count it) ends the text there.
    /// </summary>
    public static string ToText(ReadOnlySpan<byte> value)
    {
        int nul = value.IndexOf((byte)0);
        return Encoding.UTF8.GetString(nul >= 0 ? value[..nul] : value);
    }

    /// <summary>Every certificate in <paramref name="pem"/>, in order; empty when there is none or one does not parse.</summary>
    public static X509Certificate2Collection ReadCertificates(string pem)
    {
        var certificates = new X509Certificate2Collection();
        try
        {
            certificates.ImportFromPem(pem);
        }
        catch (CryptographicException)
        {
            certificates.Clear();
        }

        return certificates;
    }
}
