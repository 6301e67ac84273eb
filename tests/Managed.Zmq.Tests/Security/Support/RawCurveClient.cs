using System.Buffers.Binary;
using System.Net;
using System.Security.Cryptography;
using System.Text;
using Managed.Zmq.Security.Crypto;
using NetSocket = System.Net.Sockets.Socket;

namespace Managed.Zmq.Tests.Security.Support;

/// <summary>
/// A CURVE client written by hand over a raw <see cref="NetSocket"/>, from RFC 26's grammar (as libzmq
/// reads it, docs/libzmq-behaviour.md L9) and the primitives only, so that every command can be built wrongly on
/// purpose: a short HELLO, a bad version, a short INITIATE, a bad vouch, a forged or replayed
/// MESSAGE. Every read has a receive timeout, so nothing here can hang a test.
/// </summary>
internal sealed class RawCurveClient : IDisposable
{
    private static readonly ICurveCryptoProvider s_crypto = CurveCryptoProviders.Default;

    private readonly NetSocket _tcp;
    private readonly byte[] _serverPublic;
    private readonly byte[] _transientPublic = new byte[32];
    private readonly byte[] _transientSecret = new byte[32];
    private byte[] _serverTransient = [];
    private byte[] _cookie = [];
    private readonly byte[] _sessionKey = new byte[32];

    public RawCurveClient(int port, byte[] serverPublic, (byte[] Public, byte[] Secret) clientKeys, int timeoutMs = 10_000)
    {
        _serverPublic = serverPublic;
        ClientPublic = clientKeys.Public;
        ClientSecret = clientKeys.Secret;
        RandomNumberGenerator.Fill(_transientSecret);
        s_crypto.DerivePublicKey(_transientSecret, _transientPublic);
        _tcp = new NetSocket(System.Net.Sockets.SocketType.Stream, System.Net.Sockets.ProtocolType.Tcp)
        {
            ReceiveTimeout = timeoutMs,
            SendTimeout = timeoutMs,
            NoDelay = true,
        };
        _tcp.Connect(new IPEndPoint(IPAddress.Loopback, port));
    }

    public byte[] ClientPublic { get; }

    public byte[] ClientSecret { get; }

    /// <summary>Next short nonce for a MESSAGE (HELLO used 1 and INITIATE 2: docs/libzmq-behaviour.md L9).</summary>
    public ulong NextNonce { get; set; } = 3;

    public static (byte[] Public, byte[] Secret) NewKeys()
    {
        var (pub, sec) = Curve.GenerateKeypair();
        return (Z85.Decode(pub), Z85.Decode(sec));
    }

    /// <summary>Sends our 64-octet 3.1 CURVE greeting and reads the server's.</summary>
    public void ExchangeGreetings()
    {
        var greeting = new byte[64];
        greeting[0] = 0xFF;
        greeting[8] = 0x01;
        greeting[9] = 0x7F;
        greeting[10] = 3;
        greeting[11] = 1;
        Encoding.ASCII.GetBytes("CURVE").CopyTo(greeting, 12);
        _tcp.Send(greeting);
        var peer = ReadExactly(64) ?? throw new IOException("The server closed during the greeting.");
        Assert.Equal(0xFF, peer[0]);
        Assert.Equal("CURVE", Encoding.ASCII.GetString(peer, 12, 5));
    }

    /// <summary>HELLO per RFC 26: 05 HELLO, version, 72 octets of padding, C′, short nonce, Box[64 zeros](C′→S).</summary>
    public byte[] BuildHello(byte major = 1, byte minor = 0)
    {
        var body = new byte[200];
        body[0] = 5;
        Encoding.ASCII.GetBytes("HELLO").CopyTo(body, 1);
        body[6] = major;
        body[7] = minor;
        _transientPublic.CopyTo(body, 80);
        BinaryPrimitives.WriteUInt64BigEndian(body.AsSpan(112), 1);
        var key = new byte[32];
        Assert.True(s_crypto.BoxBeforeNm(_serverPublic, _transientSecret, key));
        s_crypto.SealAfterNm(key, Nonce("CurveZMQHELLO---", body.AsSpan(112, 8)), new byte[64], body.AsSpan(120, 80));
        return body;
    }

    /// <summary>Reads WELCOME and opens it, keeping S′ and the cookie.</summary>
    public void ReadWelcome()
    {
        var body = ReadFrame(out _) ?? throw new IOException("The server closed instead of sending WELCOME.");
        Assert.Equal(168, body.Length);
        Assert.Equal("\u0007WELCOME", Encoding.ASCII.GetString(body, 0, 8));
        var key = new byte[32];
        Assert.True(s_crypto.BoxBeforeNm(_serverPublic, _transientSecret, key));
        var plain = new byte[128];
        Assert.True(s_crypto.OpenAfterNm(key, Nonce("WELCOME-", body.AsSpan(8, 16)), body.AsSpan(24, 144), plain), "WELCOME box did not open");
        _serverTransient = plain[..32];
        _cookie = plain[32..];
        Assert.True(s_crypto.BoxBeforeNm(_serverTransient, _transientSecret, _sessionKey));
    }

    /// <summary>
    /// INITIATE per RFC 26: 08 INITIATE, cookie, short nonce 2, Box[C + vouch + metadata](C′→S′), where
    /// vouch = long nonce + Box[C′ + S](C→S′). The optional arguments break the vouch on purpose.
    /// </summary>
    public byte[] BuildInitiate(byte[]? vouchSigner = null, byte[]? vouchedTransient = null, string socketType = "PUSH")
    {
        var vouchNonce = RandomNumberGenerator.GetBytes(16);
        var vouchKey = new byte[32];
        Assert.True(s_crypto.BoxBeforeNm(_serverTransient, vouchSigner ?? ClientSecret, vouchKey));
        var vouch = new byte[96];
        vouchNonce.CopyTo(vouch, 0);
        s_crypto.SealAfterNm(vouchKey, Nonce("VOUCH---", vouchNonce), [.. vouchedTransient ?? _transientPublic, .. _serverPublic], vouch.AsSpan(16));

        byte[] metadata = [11, .. "Socket-Type"u8, 0, 0, 0, (byte)socketType.Length, .. Encoding.ASCII.GetBytes(socketType)];
        byte[] plaintext = [.. ClientPublic, .. vouch, .. metadata];
        var body = new byte[9 + 96 + 8 + 16 + plaintext.Length];
        body[0] = 8;
        Encoding.ASCII.GetBytes("INITIATE").CopyTo(body, 1);
        _cookie.CopyTo(body, 9);
        BinaryPrimitives.WriteUInt64BigEndian(body.AsSpan(105), 2);
        s_crypto.SealAfterNm(_sessionKey, Nonce("CurveZMQINITIATE", body.AsSpan(105, 8)), plaintext, body.AsSpan(113));
        return body;
    }

    /// <summary>Reads READY and opens it.</summary>
    public void ReadReady()
    {
        var body = ReadFrame(out _) ?? throw new IOException("The server closed instead of sending READY.");
        Assert.Equal("\u0005READY", Encoding.ASCII.GetString(body, 0, 6));
        var plain = new byte[body.Length - 14 - 16];
        Assert.True(s_crypto.OpenAfterNm(_sessionKey, Nonce("CurveZMQREADY---", body.AsSpan(6, 8)), body.AsSpan(14), plain), "READY box did not open");
    }

    /// <summary>Greeting, HELLO, WELCOME, INITIATE (as a <paramref name="socketType"/>), READY, all well-formed.</summary>
    public void Handshake(string socketType = "PUSH")
    {
        ExchangeGreetings();
        SendCommand(BuildHello());
        ReadWelcome();
        SendCommand(BuildInitiate(socketType: socketType));
        ReadReady();
    }

    /// <summary>MESSAGE per RFC 26 (client prefix "CurveZMQMESSAGEC", docs/libzmq-behaviour.md L9): 07 MESSAGE, short nonce, Box[flags + payload].</summary>
    public byte[] BuildMessage(byte[] payload, ulong? nonce = null, byte flags = 0)
    {
        var n = nonce ?? NextNonce++;
        var body = new byte[16 + 16 + 1 + payload.Length];
        body[0] = 7;
        Encoding.ASCII.GetBytes("MESSAGE").CopyTo(body, 1);
        BinaryPrimitives.WriteUInt64BigEndian(body.AsSpan(8), n);
        s_crypto.SealAfterNm(_sessionKey, Nonce("CurveZMQMESSAGEC", body.AsSpan(8, 8)), [flags, .. payload], body.AsSpan(16));
        return body;
    }

    /// <summary>Sends a body as a ZMTP command frame (flag 0x04, plus LONG when needed).</summary>
    public void SendCommand(byte[] body) => SendFrame(body, 0x04);

    /// <summary>Sends a MESSAGE body as libzmq does: a plain frame (no COMMAND flag).</summary>
    public void SendMessageFrame(byte[] body) => SendFrame(body, 0x00);

    public void SendRaw(byte[] bytes) => _tcp.Send(bytes);

    private void SendFrame(byte[] body, byte flags)
    {
        byte[] header = body.Length > 255
            ? [(byte)(flags | 0x02), .. BitConverter.GetBytes(BinaryPrimitives.ReverseEndianness((ulong)body.Length))]
            : [flags, (byte)body.Length];
        _tcp.Send([.. header, .. body]);
    }

    /// <summary>Reads one frame's body; null if the server closed the connection.</summary>
    public byte[]? ReadFrame(out byte flags)
    {
        flags = 0;
        var first = ReadExactly(1);
        if (first is null)
            return null;
        flags = first[0];
        var sizeBytes = ReadExactly((flags & 0x02) != 0 ? 8 : 1);
        if (sizeBytes is null)
            return null;
        var size = sizeBytes.Length == 8 ? (int)BinaryPrimitives.ReadUInt64BigEndian(sizeBytes) : sizeBytes[0];
        return ReadExactly(size);
    }

    /// <summary>True when the server closes the connection; reads and discards anything before that. False after the receive timeout.</summary>
    public bool WaitForClose()
    {
        var buffer = new byte[4096];
        try
        {
            while (_tcp.Receive(buffer) > 0)
            {
            }

            return true;
        }
        catch (System.Net.Sockets.SocketException e) when (e.SocketErrorCode == System.Net.Sockets.SocketError.ConnectionReset)
        {
            return true;
        }
        catch (System.Net.Sockets.SocketException e) when (e.SocketErrorCode == System.Net.Sockets.SocketError.TimedOut)
        {
            return false;
        }
    }

    private byte[]? ReadExactly(int count)
    {
        var data = new byte[count];
        var read = 0;
        while (read < count)
        {
            int n;
            try
            {
                n = _tcp.Receive(data, read, count - read, System.Net.Sockets.SocketFlags.None);
            }
            catch (System.Net.Sockets.SocketException e) when (e.SocketErrorCode == System.Net.Sockets.SocketError.ConnectionReset)
            {
                return null;
            }

            if (n == 0)
                return null;
            read += n;
        }

        return data;
    }

    private static byte[] Nonce(string prefix, ReadOnlySpan<byte> tail) => [.. Encoding.ASCII.GetBytes(prefix), .. tail];

    public void Dispose() => _tcp.Dispose();
}
