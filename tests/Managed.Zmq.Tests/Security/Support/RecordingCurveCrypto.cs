using System.Text;
using Managed.Zmq.Security.Crypto;

namespace Managed.Zmq.Tests.Security.Support;

/// <summary>The managed provider, recording every nonce it seals with (to check CurveZMQ's nonce prefixes and counters).</summary>
internal sealed class RecordingCurveCrypto : ICurveCryptoProvider
{
    private readonly ICurveCryptoProvider _inner = ManagedCurveCrypto.Instance;

    /// <summary>Each sealing nonce as text prefix (ASCII part) and the hex of its last 8 octets.</summary>
    public List<string> SealNonces { get; } = [];

    public void DerivePublicKey(ReadOnlySpan<byte> secretKey, Span<byte> publicKey) => _inner.DerivePublicKey(secretKey, publicKey);

    public bool BoxBeforeNm(ReadOnlySpan<byte> publicKey, ReadOnlySpan<byte> secretKey, Span<byte> sharedKey) =>
        _inner.BoxBeforeNm(publicKey, secretKey, sharedKey);

    public void SealAfterNm(ReadOnlySpan<byte> sharedKey, ReadOnlySpan<byte> nonce, ReadOnlySpan<byte> plaintext, Span<byte> box)
    {
        string prefix = Encoding.ASCII.GetString(nonce.Slice(0, 16));
        if (prefix.StartsWith("CurveZMQ", StringComparison.Ordinal))
        {
            SealNonces.Add(prefix + ":" + Convert.ToHexString(nonce.Slice(16)));
        }
        else
        {
            SealNonces.Add(prefix.Substring(0, 8));
        }

        _inner.SealAfterNm(sharedKey, nonce, plaintext, box);
    }

    public bool OpenAfterNm(ReadOnlySpan<byte> sharedKey, ReadOnlySpan<byte> nonce, ReadOnlySpan<byte> box, Span<byte> plaintext) =>
        _inner.OpenAfterNm(sharedKey, nonce, box, plaintext);

    public ICurveMessageCipher CreateMessageCipher(ReadOnlySpan<byte> sharedKey, ReadOnlySpan<byte> noncePrefix) =>
        new RecordingMessageCipher(_inner.CreateMessageCipher(sharedKey, noncePrefix), Encoding.ASCII.GetString(noncePrefix), SealNonces);
}
