using System.Diagnostics;
using System.Security.Cryptography;

namespace Managed.Zmq.Security.Crypto;

/// <summary>
/// NaCl's crypto_secretbox (= crypto_box_afternm): XSalsa20 encryption with a Poly1305 tag, in the
/// "MAC ‖ ciphertext" layout CurveZMQ puts on the wire ("Cryptography in NaCl" §9).
/// </summary>
/// <remarks>
/// NaCl pads the plaintext with 32 zero octets in front: the first 32 key-stream octets become the
/// Poly1305 key and the message is encrypted from key-stream octet 32 on. The padding and the 16
/// zero octets NaCl leaves before the tag are not sent, so a box is exactly 16 octets longer than
/// its plaintext (RFC 26 §CurveZMQ Commands).
/// </remarks>
internal static class XSalsa20Poly1305
{
    /// <summary>The nonce size.</summary>
    public const int NonceSize = Salsa20.XNonceSize;

    /// <summary>The key size.</summary>
    public const int KeySize = Salsa20.KeySize;

    /// <summary>How much longer a box is than its plaintext.</summary>
    public const int Overhead = Poly1305.TagSize;

    /// <summary>
    /// Encrypts <paramref name="plaintext"/> into <paramref name="box"/> (tag then ciphertext, 16 +
    /// plaintext length octets). <paramref name="plaintext"/> may be <c>box[16..]</c> exactly (in place).
    /// </summary>
    public static void Seal(ReadOnlySpan<byte> key, ReadOnlySpan<byte> nonce, ReadOnlySpan<byte> plaintext, Span<byte> box)
    {
        Debug.Assert(key.Length == KeySize && nonce.Length == NonceSize, "secretbox sizes.");
        Debug.Assert(box.Length == plaintext.Length + Overhead, "A box is 16 octets longer than its plaintext.");

        Span<byte> firstBlock = stackalloc byte[Salsa20.BlockSize];
        Span<byte> subkey = stackalloc byte[KeySize];
        Salsa20.HSalsa20(key, nonce.Slice(0, Salsa20.HInputSize), subkey);
        ReadOnlySpan<byte> streamNonce = nonce.Slice(Salsa20.HInputSize);

        // Block 0: 32 octets of Poly1305 key, then the first 32 octets of message key stream.
        firstBlock.Clear();
        Salsa20.Salsa20Xor(subkey, streamNonce, 0, firstBlock, firstBlock);
        Span<byte> ciphertext = box.Slice(Overhead);
        int head = Math.Min(plaintext.Length, Salsa20.BlockSize - Poly1305.KeySize);
        for (int i = 0; i < head; i++)
        {
            ciphertext[i] = (byte)(plaintext[i] ^ firstBlock[Poly1305.KeySize + i]);
        }

        if (plaintext.Length > head)
        {
            Salsa20.Salsa20Xor(subkey, streamNonce, 1, plaintext.Slice(head), ciphertext.Slice(head));
        }

        Poly1305.Compute(firstBlock.Slice(0, Poly1305.KeySize), ciphertext, box.Slice(0, Overhead));
        CryptographicOperations.ZeroMemory(firstBlock);
        CryptographicOperations.ZeroMemory(subkey);
    }

    /// <summary>
    /// Checks the tag in constant time and, only when it holds, decrypts <paramref name="box"/> into
    /// <paramref name="plaintext"/> (box length - 16 octets). <paramref name="plaintext"/> may be
    /// <c>box[16..]</c> exactly (in place).
    /// </summary>
    /// <returns>False, with <paramref name="plaintext"/> untouched, when the box is shorter than a tag or does not authenticate.</returns>
    public static bool Open(ReadOnlySpan<byte> key, ReadOnlySpan<byte> nonce, ReadOnlySpan<byte> box, Span<byte> plaintext)
    {
        Debug.Assert(key.Length == KeySize && nonce.Length == NonceSize, "secretbox sizes.");
        if (box.Length < Overhead)
        {
            return false;
        }

        Debug.Assert(plaintext.Length >= box.Length - Overhead, "The plaintext buffer holds the whole message.");
        Span<byte> firstBlock = stackalloc byte[Salsa20.BlockSize];
        Span<byte> subkey = stackalloc byte[KeySize];
        Salsa20.HSalsa20(key, nonce.Slice(0, Salsa20.HInputSize), subkey);
        ReadOnlySpan<byte> streamNonce = nonce.Slice(Salsa20.HInputSize);
        firstBlock.Clear();
        Salsa20.Salsa20Xor(subkey, streamNonce, 0, firstBlock, firstBlock);

        ReadOnlySpan<byte> ciphertext = box.Slice(Overhead);
        bool authentic = Poly1305.Verify(firstBlock.Slice(0, Poly1305.KeySize), ciphertext, box.Slice(0, Overhead));
        if (authentic)
        {
            int head = Math.Min(ciphertext.Length, Salsa20.BlockSize - Poly1305.KeySize);
            for (int i = 0; i < head; i++)
            {
                plaintext[i] = (byte)(ciphertext[i] ^ firstBlock[Poly1305.KeySize + i]);
            }

            if (ciphertext.Length > head)
            {
                Salsa20.Salsa20Xor(subkey, streamNonce, 1, ciphertext.Slice(head), plaintext.Slice(head));
            }
        }

        CryptographicOperations.ZeroMemory(firstBlock);
        CryptographicOperations.ZeroMemory(subkey);
        return authentic;
    }
}
