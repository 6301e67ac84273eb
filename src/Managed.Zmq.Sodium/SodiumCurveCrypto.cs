using System.Security.Cryptography;
using Managed.Zmq.Security.Crypto;
using NSec.Cryptography;

namespace Managed.Zmq.Sodium;

/// <summary>
/// CURVE's crypto with X25519 from libsodium, through NSec.Cryptography: the scalar
/// multiplications of a handshake (key pairs, crypto_box_beforenm) run in libsodium's tuned code.
/// </summary>
/// <remarks>
/// NSec offers no XSalsa20-Poly1305, and the managed one (vectorised Salsa20, four-lane Poly1305,
/// key stream made ahead for small messages) outruns libsodium's crypto_box_afternm anyway
/// (docs/security.md, "Speed, and Managed.Zmq.Sodium"), so boxes and message ciphers stay with <see cref="ManagedCurveCrypto"/>.
/// </remarks>
internal sealed class SodiumCurveCrypto : ICurveCryptoProvider
{
    private static readonly KeyAgreementAlgorithm X25519Algorithm = KeyAgreementAlgorithm.X25519;

    private static readonly ICurveCryptoProvider Managed = ManagedCurveCrypto.Instance;

    private SodiumCurveCrypto()
    {
    }

    /// <summary>The one instance (the type is stateless).</summary>
    public static SodiumCurveCrypto Instance { get; } = new();

    public void DerivePublicKey(ReadOnlySpan<byte> secretKey, Span<byte> publicKey)
    {
        using var key = Key.Import(X25519Algorithm, secretKey, KeyBlobFormat.RawPrivateKey);
        if (!key.PublicKey.TryExport(KeyBlobFormat.RawPublicKey, publicKey, out int written) || written != 32)
        {
            throw new CryptographicException("NSec did not export a 32-octet X25519 public key.");
        }
    }

    public bool BoxBeforeNm(ReadOnlySpan<byte> publicKey, ReadOnlySpan<byte> secretKey, Span<byte> sharedKey)
    {
        Span<byte> shared = stackalloc byte[32];
        bool valid = TryAgree(publicKey, secretKey, shared);
        return ManagedCurveCrypto.BoxKeyFromSharedPoint(shared, valid, sharedKey);
    }

    public void SealAfterNm(ReadOnlySpan<byte> sharedKey, ReadOnlySpan<byte> nonce, ReadOnlySpan<byte> plaintext, Span<byte> box) =>
        Managed.SealAfterNm(sharedKey, nonce, plaintext, box);

    public bool OpenAfterNm(ReadOnlySpan<byte> sharedKey, ReadOnlySpan<byte> nonce, ReadOnlySpan<byte> box, Span<byte> plaintext) =>
        Managed.OpenAfterNm(sharedKey, nonce, box, plaintext);

    public ICurveMessageCipher CreateMessageCipher(ReadOnlySpan<byte> sharedKey, ReadOnlySpan<byte> noncePrefix) =>
        Managed.CreateMessageCipher(sharedKey, noncePrefix);

    /// <summary>X25519(secret, public) into <paramref name="shared"/>; false (and zeros) when libsodium refuses it (an all-zero result: a small-order point).</summary>
    private static bool TryAgree(ReadOnlySpan<byte> publicKey, ReadOnlySpan<byte> secretKey, Span<byte> shared)
    {
        shared.Clear();
        if (!PublicKey.TryImport(X25519Algorithm, publicKey, KeyBlobFormat.RawPublicKey, out PublicKey? peer) || peer is null)
        {
            return false;
        }

        using var key = Key.Import(X25519Algorithm, secretKey, KeyBlobFormat.RawPrivateKey);
        var exportable = new SharedSecretCreationParameters { ExportPolicy = KeyExportPolicies.AllowPlaintextExport };
        using SharedSecret? secret = X25519Algorithm.Agree(key, peer, in exportable);
        return secret is not null
            && secret.TryExport(SharedSecretBlobFormat.RawSharedSecret, shared, out int written)
            && written == 32;
    }
}
