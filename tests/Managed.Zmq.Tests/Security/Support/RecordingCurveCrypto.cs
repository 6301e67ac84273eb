using System.Text;
using Managed.Zmq.Security.Crypto;

namespace Managed.Zmq.Tests.Security.Support;

/// <summary>The managed provider, recording every nonce it seals with (to check CurveZMQ's nonce prefixes and counters).</summary>
internal sealed class RecordingCurveCrypto : ICurveCryptoProvider
{
    private readonly ICurveCryptoProvider _inner = ManagedCurveCrypto.Instance;

    /// <summary>The nonce prefix each stream key was derived for, by the key's hex.</summary>
    private readonly Dictionary<string, string> _streamKeyPrefixes = [];

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

    public void DeriveStreamKey(ReadOnlySpan<byte> sharedKey, ReadOnlySpan<byte> noncePrefix, Span<byte> streamKey)
    {
        _inner.DeriveStreamKey(sharedKey, noncePrefix, streamKey);
        _streamKeyPrefixes[Convert.ToHexString(streamKey)] = Encoding.ASCII.GetString(noncePrefix);
    }

    public void SealWithStreamKey(ReadOnlySpan<byte> streamKey, ReadOnlySpan<byte> nonceSuffix, ReadOnlySpan<byte> plaintext, Span<byte> box)
    {
        SealNonces.Add(_streamKeyPrefixes[Convert.ToHexString(streamKey)] + ":" + Convert.ToHexString(nonceSuffix));
        _inner.SealWithStreamKey(streamKey, nonceSuffix, plaintext, box);
    }

    public bool OpenWithStreamKey(ReadOnlySpan<byte> streamKey, ReadOnlySpan<byte> nonceSuffix, ReadOnlySpan<byte> box, Span<byte> plaintext) =>
        _inner.OpenWithStreamKey(streamKey, nonceSuffix, box, plaintext);
}
