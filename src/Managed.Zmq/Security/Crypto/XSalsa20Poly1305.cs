using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Security.Cryptography;

namespace Managed.Zmq.Security.Crypto;

/// <summary>
/// NaCl's crypto_secretbox (= crypto_box_afternm): XSalsa20 encryption with a Poly1305 tag, in the
/// "MAC ‖ ciphertext" layout CurveZMQ puts on the wire (RFC 26).
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
    /// Key stream one four-block batch makes: a box whose Poly1305 key and message fit in it
    /// (messages up to 224 octets) is opened from that batch alone.
    /// </summary>
    private const int SmallBoxStream = 4 * Salsa20.BlockSize;

    /// <summary>The key of the Salsa20 stream under a 24-octet nonce: HSalsa20 of the key and the nonce's first 16 octets.</summary>
    public static void DeriveStreamKey(ReadOnlySpan<byte> key, ReadOnlySpan<byte> noncePrefix, Span<byte> streamKey)
    {
        Debug.Assert(key.Length == KeySize && noncePrefix.Length == Salsa20.HInputSize, "HSalsa20 sizes.");
        Salsa20.HSalsa20(key, noncePrefix, streamKey);
    }

    /// <summary>
    /// Encrypts <paramref name="plaintext"/> into <paramref name="box"/> (tag then ciphertext, 16 +
    /// plaintext length octets). <paramref name="plaintext"/> may be <c>box[16..]</c> exactly (in place).
    /// </summary>
    [SkipLocalsInit]
    public static void Seal(ReadOnlySpan<byte> key, ReadOnlySpan<byte> nonce, ReadOnlySpan<byte> plaintext, Span<byte> box)
    {
        Debug.Assert(key.Length == KeySize && nonce.Length == NonceSize, "secretbox sizes.");
        Span<byte> streamKey = stackalloc byte[KeySize];
        DeriveStreamKey(key, nonce.Slice(0, Salsa20.HInputSize), streamKey);
        SealWithStreamKey(streamKey, nonce.Slice(Salsa20.HInputSize), plaintext, box);
        CryptographicOperations.ZeroMemory(streamKey);
    }

    /// <summary>
    /// <see cref="Seal"/> with the nonce's HSalsa20 step already done: <paramref name="streamKey"/>
    /// from <see cref="DeriveStreamKey"/> and the nonce's last 8 octets.
    /// </summary>
    [SkipLocalsInit]
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static void SealWithStreamKey(ReadOnlySpan<byte> streamKey, ReadOnlySpan<byte> nonceSuffix, ReadOnlySpan<byte> plaintext, Span<byte> box)
    {
        Debug.Assert(streamKey.Length == KeySize && nonceSuffix.Length == NonceSize - Salsa20.HInputSize, "Salsa20 sizes.");
        Debug.Assert(box.Length == plaintext.Length + Overhead, "A box is 16 octets longer than its plaintext.");

        // One pass from block 0: its first 32 octets are the Poly1305 key, the rest encrypts.
        Span<byte> polyKey = stackalloc byte[Poly1305.KeySize];
        Span<byte> ciphertext = box.Slice(Overhead);
        Salsa20.Salsa20Xor(streamKey, nonceSuffix, 0, polyKey, plaintext, ciphertext);
        Poly1305.Compute(polyKey, ciphertext, box.Slice(0, Overhead));
        CryptographicOperations.ZeroMemory(polyKey);
    }

    /// <summary>
    /// Checks the tag in constant time and, only when it holds, decrypts <paramref name="box"/> into
    /// <paramref name="plaintext"/> (box length - 16 octets). <paramref name="plaintext"/> may be
    /// <c>box[16..]</c> exactly (in place).
    /// </summary>
    /// <returns>False, with <paramref name="plaintext"/> untouched, when the box is shorter than a tag or does not authenticate.</returns>
    [SkipLocalsInit]
    public static bool Open(ReadOnlySpan<byte> key, ReadOnlySpan<byte> nonce, ReadOnlySpan<byte> box, Span<byte> plaintext)
    {
        Debug.Assert(key.Length == KeySize && nonce.Length == NonceSize, "secretbox sizes.");
        Span<byte> streamKey = stackalloc byte[KeySize];
        DeriveStreamKey(key, nonce.Slice(0, Salsa20.HInputSize), streamKey);
        bool authentic = OpenWithStreamKey(streamKey, nonce.Slice(Salsa20.HInputSize), box, plaintext);
        CryptographicOperations.ZeroMemory(streamKey);
        return authentic;
    }

    /// <summary><see cref="Open"/> with the nonce's HSalsa20 step already done (see <see cref="SealWithStreamKey"/>).</summary>
    [SkipLocalsInit]
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static bool OpenWithStreamKey(ReadOnlySpan<byte> streamKey, ReadOnlySpan<byte> nonceSuffix, ReadOnlySpan<byte> box, Span<byte> plaintext)
    {
        Debug.Assert(streamKey.Length == KeySize && nonceSuffix.Length == NonceSize - Salsa20.HInputSize, "Salsa20 sizes.");
        if (box.Length < Overhead)
        {
            return false;
        }

        Debug.Assert(plaintext.Length >= box.Length - Overhead, "The plaintext buffer holds the whole message.");
        ReadOnlySpan<byte> ciphertext = box.Slice(Overhead);
        ReadOnlySpan<byte> tag = box.Slice(0, Overhead);

        // The tag is checked before anything is decrypted, so the key stream's head (the Poly1305
        // key) comes first. A small box takes all its key stream in that one batch; a larger one
        // takes block 0 alone and streams the rest once the tag holds.
        int needed = Poly1305.KeySize + ciphertext.Length;
        Span<byte> stream = stackalloc byte[SmallBoxStream];
        if (needed <= SmallBoxStream)
        {
            stream = stream.Slice(0, needed);
            Salsa20.KeyStream(streamKey, nonceSuffix, 0, stream);
            bool opened = OpenWithKeyStream(stream, box, plaintext);
            CryptographicOperations.ZeroMemory(stream);
            return opened;
        }

        stream = stream.Slice(0, Salsa20.BlockSize);
        Salsa20.KeyStream(streamKey, nonceSuffix, 0, stream);
        bool authentic = Poly1305.Verify(stream.Slice(0, Poly1305.KeySize), ciphertext, tag);
        if (authentic)
        {
            int covered = Salsa20.BlockSize - Poly1305.KeySize;
            Salsa20.Xor(ciphertext.Slice(0, covered), stream.Slice(Poly1305.KeySize), plaintext);
            Salsa20.Salsa20Xor(streamKey, nonceSuffix, 1, ciphertext.Slice(covered), plaintext.Slice(covered));
        }

        CryptographicOperations.ZeroMemory(stream);
        return authentic;
    }

    /// <summary>
    /// Seals with key stream made beforehand: <paramref name="keyStream"/> is the nonce's first
    /// 32 + plaintext length key-stream octets (the Poly1305 key, then the message's).
    /// </summary>
    public static void SealWithKeyStream(ReadOnlySpan<byte> keyStream, ReadOnlySpan<byte> plaintext, Span<byte> box)
    {
        Debug.Assert(keyStream.Length >= Poly1305.KeySize + plaintext.Length, "The key stream covers the message.");
        Debug.Assert(box.Length == plaintext.Length + Overhead, "A box is 16 octets longer than its plaintext.");
        Span<byte> ciphertext = box.Slice(Overhead);
        Salsa20.Xor(plaintext, keyStream.Slice(Poly1305.KeySize), ciphertext);
        Poly1305.Compute(keyStream.Slice(0, Poly1305.KeySize), ciphertext, box.Slice(0, Overhead));
    }

    /// <summary>Opens with key stream made beforehand (see <see cref="SealWithKeyStream"/>); the tag is checked first.</summary>
    public static bool OpenWithKeyStream(ReadOnlySpan<byte> keyStream, ReadOnlySpan<byte> box, Span<byte> plaintext)
    {
        if (box.Length < Overhead)
        {
            return false;
        }

        ReadOnlySpan<byte> ciphertext = box.Slice(Overhead);
        Debug.Assert(keyStream.Length >= Poly1305.KeySize + ciphertext.Length, "The key stream covers the message.");
        if (!Poly1305.Verify(keyStream.Slice(0, Poly1305.KeySize), ciphertext, box.Slice(0, Overhead)))
        {
            return false;
        }

        Salsa20.Xor(ciphertext, keyStream.Slice(Poly1305.KeySize), plaintext);
        return true;
    }
}
