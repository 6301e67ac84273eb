using System.Security.Cryptography;
using System.Text;

namespace Managed.Zmq.Security.Zap;

/// <summary>
/// The rules of <see cref="ZapAuthenticator"/> and the decision for one ZAP request (RFC 27),
/// without sockets. Rules may change on any thread while requests are decided on another.
/// </summary>
/// <remarks>
/// <para>Addresses first: when an allow list is set, only its addresses pass; otherwise an
/// address on the deny list is refused. Then the mechanism: NULL passes; PLAIN needs the user's
/// password in the request's domain (or in <see cref="AnyDomain"/>); CURVE needs the client's
/// long-term public key allowed in that domain, or the domain set to allow any key. A domain with
/// no PLAIN or CURVE rules refuses that mechanism, so starting an authenticator never opens a
/// server up. The user id of an accepted PLAIN client is its user name, of a CURVE client its
/// public key in Z85, as pyzmq's and CZMQ's authenticators report them.</para>
/// </remarks>
internal sealed class ZapPolicy
{
    /// <summary>The domain whose rules apply to requests of every domain without rules of their own.</summary>
    public const string AnyDomain = "*";

    private readonly object _lock = new();
    private readonly HashSet<string> _allowed = new(StringComparer.Ordinal);
    private readonly HashSet<string> _denied = new(StringComparer.Ordinal);
    private readonly Dictionary<string, Dictionary<string, string>> _passwords = new(StringComparer.Ordinal);
    private readonly Dictionary<string, HashSet<string>?> _curveKeys = new(StringComparer.Ordinal);

    public void Allow(IEnumerable<string> addresses)
    {
        lock (_lock)
        {
            _allowed.UnionWith(addresses);
        }
    }

    public void Deny(IEnumerable<string> addresses)
    {
        lock (_lock)
        {
            _denied.UnionWith(addresses);
        }
    }

    /// <summary>Replaces the PLAIN user names and passwords of <paramref name="domain"/>.</summary>
    public void SetPasswords(string domain, IEnumerable<KeyValuePair<string, string>> passwords)
    {
        var table = new Dictionary<string, string>(passwords, StringComparer.Ordinal);
        lock (_lock)
        {
            _passwords[domain] = table;
        }
    }

    /// <summary>Replaces the CURVE public keys (32 octets each) allowed in <paramref name="domain"/>; null allows any key.</summary>
    public void SetCurveKeys(string domain, IEnumerable<byte[]>? keys)
    {
        HashSet<string>? set = keys is null ? null : new HashSet<string>(keys.Select(Convert.ToHexString), StringComparer.Ordinal);
        lock (_lock)
        {
            _curveKeys[domain] = set;
        }
    }

    /// <summary>
    /// Decides a request given as its frames after the delimiter: version, request id, domain,
    /// address, identity, mechanism, credentials (RFC 27 §Message Format).
    /// </summary>
    public ZapDecision Decide(IReadOnlyList<byte[]> request)
    {
        if (request.Count < 6 || !request[0].AsSpan().SequenceEqual("1.0"u8))
        {
            return ZapDecision.Deny("Malformed request");
        }

        string domain = Encoding.UTF8.GetString(request[2]);
        string address = Encoding.ASCII.GetString(request[3]);
        string mechanism = Encoding.ASCII.GetString(request[5]);
        lock (_lock)
        {
            if (_allowed.Count > 0 ? !_allowed.Contains(address) : _denied.Contains(address))
            {
                return ZapDecision.Deny("Address not allowed");
            }

            return mechanism switch
            {
                "NULL" when request.Count == 6 => ZapDecision.Accept(""),
                "PLAIN" when request.Count == 8 => DecidePlain(domain, request[6], request[7]),
                "CURVE" when request.Count == 7 && request[6].Length == 32 => DecideCurve(domain, request[6]),
                "NULL" or "PLAIN" or "CURVE" => ZapDecision.Deny("Malformed request"),
                _ => ZapDecision.Deny("Unsupported mechanism"),
            };
        }
    }

    private ZapDecision DecidePlain(string domain, byte[] userName, byte[] password)
    {
        if (!_passwords.TryGetValue(domain, out var table) && !_passwords.TryGetValue(AnyDomain, out table))
        {
            return ZapDecision.Deny("No passwords defined");
        }

        string user = Encoding.UTF8.GetString(userName);
        if (!table.TryGetValue(user, out string? expected))
        {
            return ZapDecision.Deny("Invalid username or password");
        }

        // Compared in fixed time for a given length, so the time taken says nothing about the password.
        byte[] expectedBytes = Encoding.UTF8.GetBytes(expected);
        bool match = CryptographicOperations.FixedTimeEquals(expectedBytes, password);
        CryptographicOperations.ZeroMemory(expectedBytes);
        return match ? ZapDecision.Accept(user) : ZapDecision.Deny("Invalid username or password");
    }

    private ZapDecision DecideCurve(string domain, byte[] publicKey)
    {
        if (!_curveKeys.TryGetValue(domain, out var keys) && !_curveKeys.TryGetValue(AnyDomain, out keys))
        {
            return ZapDecision.Deny("No CURVE keys defined");
        }

        return keys is null || keys.Contains(Convert.ToHexString(publicKey))
            ? ZapDecision.Accept(Z85.Encode(publicKey))
            : ZapDecision.Deny("Unknown key");
    }
}
