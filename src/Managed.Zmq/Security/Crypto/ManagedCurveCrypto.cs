using System.Security.Cryptography;

namespace Managed.Zmq.Security.Crypto;

/// <summary>The pure managed <see cref="ICurveCryptoProvider"/>: X25519, HSalsa20, XSalsa20 and Poly1305 from their specifications.</summary>
internal sealed class ManagedCurveCrypto : ICurveCryptoProvider
{
    private ManagedCurveCrypto()
    {
    }

    /// <summary>The one instance (the type is stateless).</summary>
    public static ManagedCurveCrypto Instance { get; } = new();

    public void DerivePublicKey(ReadOnlySpan<byte> secretKey, Span<byte> publicKey) =>
        X25519.ScalarMultBase(secretKey, publicKey);

    public bool BoxBeforeNm(ReadOnlySpan<byte> publicKey, ReadOnlySpan<byte> secretKey, Span<byte> sharedKey)
    {
        Span<byte> shared = stackalloc byte[X25519.Size];
        bool valid = X25519.ScalarMult(secretKey, publicKey, shared);
        return BoxKeyFromSharedPoint(shared, valid, sharedKey);
    }

    /// <summary>
    /// The end of crypto_box_beforenm, for any X25519: the box key is HSalsa20 of the shared point
    /// under a zero input (as NaCl, whose boxes RFC 26 uses, derives it), zeroed when the point was refused.
    /// Wipes <paramref name="shared"/>; returns <paramref name="valid"/>.
    /// </summary>
    internal static bool BoxKeyFromSharedPoint(Span<byte> shared, bool valid, Span<byte> sharedKey)
    {
        Span<byte> zero = stackalloc byte[Salsa20.HInputSize];
        zero.Clear();
        Salsa20.HSalsa20(shared, zero, sharedKey);
        CryptographicOperations.ZeroMemory(shared);
        if (!valid)
        {
            CryptographicOperations.ZeroMemory(sharedKey.Slice(0, X25519.Size));
        }

        return valid;
    }

    public void SealAfterNm(ReadOnlySpan<byte> sharedKey, ReadOnlySpan<byte> nonce, ReadOnlySpan<byte> plaintext, Span<byte> box) =>
        XSalsa20Poly1305.Seal(sharedKey, nonce, plaintext, box);

    public bool OpenAfterNm(ReadOnlySpan<byte> sharedKey, ReadOnlySpan<byte> nonce, ReadOnlySpan<byte> box, Span<byte> plaintext) =>
        XSalsa20Poly1305.Open(sharedKey, nonce, box, plaintext);

    public ICurveMessageCipher CreateMessageCipher(ReadOnlySpan<byte> sharedKey, ReadOnlySpan<byte> noncePrefix) =>
        new ManagedMessageCipher(sharedKey, noncePrefix);
}
