using System.Security.Cryptography;
using System.Text;

namespace Managed.Zmq.Transports.Ws;

/// <summary>
/// The HTTP/1.1 upgrade that opens a WebSocket (RFC 6455 §4) as ZWS 2.0 uses it
/// (RFC 45 §Handshake): the client's GET with Sec-WebSocket-Key and the protocols it offers, the server's
/// 101 with the accept key and the protocol it chose. Runs once per connection, so it may allocate.
/// </summary>
internal static class WsUpgrade
{
    /// <summary>RFC 6455 §1.3: appended to the client's key before hashing.</summary>
    private const string AcceptGuid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    private const int KeyNonceLength = 16;

    /// <summary>A fresh Sec-WebSocket-Key: 16 random octets in base64 (RFC 6455 §4.1).</summary>
    public static string CreateKey()
    {
        Span<byte> nonce = stackalloc byte[KeyNonceLength];
        RandomNumberGenerator.Fill(nonce);
        return Convert.ToBase64String(nonce);
    }

    /// <summary>The Sec-WebSocket-Accept a server returns for <paramref name="key"/> (RFC 6455 §4.2.2).</summary>
    public static string ComputeAccept(string key)
    {
#pragma warning disable CA5350 // RFC 6455 fixes SHA-1 here; it is not used for security.
        byte[] hash = SHA1.HashData(Encoding.ASCII.GetBytes(key + AcceptGuid));
#pragma warning restore CA5350
        return Convert.ToBase64String(hash);
    }

    /// <summary>The client's request, header for header what libzmq sends (Host without the port, as libzmq writes it).</summary>
    public static byte[] BuildRequest(string host, string path, string key, string protocol) =>
        Encoding.ASCII.GetBytes(
            $"GET {path} HTTP/1.1\r\n" +
            $"Host: {host}\r\n" +
            "Upgrade: websocket\r\n" +
            "Connection: Upgrade\r\n" +
            $"Sec-WebSocket-Key: {key}\r\n" +
            $"Sec-WebSocket-Protocol: {protocol}\r\n" +
            "Sec-WebSocket-Version: 13\r\n\r\n");

    /// <summary>The server's 101 reply, as libzmq writes it.</summary>
    public static byte[] BuildResponse(string accept, string protocol) =>
        Encoding.ASCII.GetBytes(
            "HTTP/1.1 101 Switching Protocols\r\n" +
            "Upgrade: websocket\r\n" +
            "Connection: Upgrade\r\n" +
            $"Sec-WebSocket-Accept: {accept}\r\n" +
            $"Sec-WebSocket-Protocol: {protocol}\r\n\r\n");

    /// <summary>What a client's upgrade request starts with: libzmq's server takes only GET.</summary>
    public static ReadOnlySpan<byte> RequestStart => "GET "u8;

    /// <summary>What a server's upgrade response starts with: the one status line <see cref="TryAcceptResponse"/> takes.</summary>
    public static ReadOnlySpan<byte> ResponseStart => "HTTP/1.1 101 Switching Protocols\r\n"u8;

    /// <summary>
    /// True once the octets received so far can no longer begin a head that starts with <paramref name="start"/>:
    /// a peer speaking something else (a TLS client at a ws listener, a ZMTP peer) is refused at once rather than
    /// when its head would have been complete, which it never will be.
    /// </summary>
    public static bool CannotStartWith(ReadOnlySpan<byte> received, ReadOnlySpan<byte> start)
    {
        int length = Math.Min(received.Length, start.Length);
        return !received[..length].SequenceEqual(start[..length]);
    }

    /// <summary>The length of the HTTP head (through the blank line) at the start of <paramref name="data"/>, or -1 while incomplete.</summary>
    public static int FindHeadEnd(ReadOnlySpan<byte> data)
    {
        int end = data.IndexOf("\r\n\r\n"u8);
        return end < 0 ? -1 : end + 4;
    }

    /// <summary>
    /// Checks a client's request and picks the protocol: true with the key and <paramref name="wanted"/>
    /// when the request is a WebSocket upgrade offering it. libzmq checks the same headers and does
    /// not look at the path.
    /// </summary>
    public static bool TryAcceptRequest(ReadOnlySpan<byte> head, string wanted, out string key)
    {
        key = string.Empty;
        if (!TrySplit(head, out string startLine, out var headers))
        {
            return false;
        }

        // "GET <resource> HTTP/1.1", as libzmq's parser demands.
        string[] parts = startLine.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        if (parts.Length != 3 || parts[0] != "GET" || parts[2] != "HTTP/1.1")
        {
            return false;
        }

        bool upgrade = false, connection = false, offered = false;
        foreach (var (name, value) in headers)
        {
            if (name.Equals("Upgrade", StringComparison.OrdinalIgnoreCase))
            {
                upgrade = value.Equals("websocket", StringComparison.OrdinalIgnoreCase);
            }
            else if (name.Equals("Connection", StringComparison.OrdinalIgnoreCase))
            {
                // libzmq wants exactly "Upgrade"; browsers may send "keep-alive, Upgrade" (RFC 6455 §4.1: it includes the token).
                connection = HasToken(value, "Upgrade");
            }
            else if (name.Equals("Sec-WebSocket-Key", StringComparison.OrdinalIgnoreCase))
            {
                key = value;
            }
            else if (name.Equals("Sec-WebSocket-Protocol", StringComparison.OrdinalIgnoreCase))
            {
                // A comma-separated list, possibly over several headers (RFC 6455 §4.1).
                offered |= HasToken(value, wanted);
            }
        }

        return upgrade && connection && offered && key.Length > 0;
    }

    /// <summary>Checks a server's reply: 101, the upgrade headers, the accept key for our key and the protocol we offered.</summary>
    public static bool TryAcceptResponse(ReadOnlySpan<byte> head, string key, string wanted)
    {
        if (!TrySplit(head, out string statusLine, out var headers) || statusLine != "HTTP/1.1 101 Switching Protocols")
        {
            return false;
        }

        bool upgrade = false, connection = false, accepted = false, chosen = false;
        string expected = ComputeAccept(key);
        foreach (var (name, value) in headers)
        {
            if (name.Equals("Upgrade", StringComparison.OrdinalIgnoreCase))
            {
                upgrade = value.Equals("websocket", StringComparison.OrdinalIgnoreCase);
            }
            else if (name.Equals("Connection", StringComparison.OrdinalIgnoreCase))
            {
                connection = HasToken(value, "Upgrade");
            }
            else if (name.Equals("Sec-WebSocket-Accept", StringComparison.OrdinalIgnoreCase))
            {
                accepted = value == expected;
            }
            else if (name.Equals("Sec-WebSocket-Protocol", StringComparison.OrdinalIgnoreCase))
            {
                chosen = value == wanted;
            }
        }

        return upgrade && connection && accepted && chosen;
    }

    private static bool HasToken(string value, string token)
    {
        foreach (var part in value.Split(','))
        {
            if (part.Trim().Equals(token, StringComparison.OrdinalIgnoreCase))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Splits a head into its first line and its headers; false for a line without a colon or over libzmq's lengths.</summary>
    private static bool TrySplit(ReadOnlySpan<byte> head, out string firstLine, out List<(string Name, string Value)> headers)
    {
        headers = [];
        string text = Encoding.Latin1.GetString(head);
        string[] lines = text.Split("\r\n");
        firstLine = lines[0];
        for (int i = 1; i < lines.Length; i++)
        {
            string line = lines[i];
            if (line.Length == 0)
            {
                continue;
            }

            int colon = line.IndexOf(':', StringComparison.Ordinal);
            if (colon <= 0)
            {
                return false;
            }

            string name = line[..colon];
            string value = line[(colon + 1)..].Trim(' ', '\t');
            if (name.Length > WsLimits.MaxHeaderNameLength || value.Length > WsLimits.MaxHeaderValueLength)
            {
                return false;
            }

            headers.Add((name, value));
        }

        return true;
    }
}
