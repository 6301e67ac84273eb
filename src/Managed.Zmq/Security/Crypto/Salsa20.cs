using System.Buffers.Binary;
using System.Diagnostics;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace Managed.Zmq.Security.Crypto;

/// <summary>
/// The Salsa20/20 core, HSalsa20 and the XSalsa20 stream cipher (HSalsa20 extends the nonce to 24
/// octets), as the crypto_box of RFC 26 uses them.
/// </summary>
/// <remarks>
/// Everything here is data-independent: the same additions, XORs and fixed rotations run
/// whatever the key, so nothing leaks through timing. Several 64-byte blocks are computed side by
/// side with one block per vector lane (Vector512: 16 blocks, Vector256: 8, Vector128: 4) when
/// the hardware accelerates it (Salsa20.Vectors.cs); the scalar core handles single blocks and
/// machines without SIMD.
/// </remarks>
internal static partial class Salsa20
{
    /// <summary>The Salsa20 block size.</summary>
    public const int BlockSize = 64;

    /// <summary>The key size of Salsa20, HSalsa20 and XSalsa20.</summary>
    public const int KeySize = 32;

    /// <summary>The XSalsa20 nonce size.</summary>
    public const int XNonceSize = 24;

    /// <summary>The HSalsa20 input size.</summary>
    public const int HInputSize = 16;

    /// <summary>The most blocks one batch makes (the Vector512 path).</summary>
    private const int MaxBatchBlocks = 16;

    // "expand 32-byte k" as four little-endian words (Salsa20's sigma constants).
    private const uint Sigma0 = 0x61707865;
    private const uint Sigma1 = 0x3320646e;
    private const uint Sigma2 = 0x79622d32;
    private const uint Sigma3 = 0x6b206574;

    /// <summary>HSalsa20: derives a 32-byte subkey from a key and a 16-byte input (the first step of XSalsa20).</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static void HSalsa20(ReadOnlySpan<byte> key, ReadOnlySpan<byte> input, Span<byte> output)
    {
        Debug.Assert(key.Length == KeySize && input.Length == HInputSize && output.Length >= KeySize, "HSalsa20 sizes.");
        Span<uint> x = stackalloc uint[16];
        SetConstantsAndKey(x, key);
        for (int i = 0; i < 4; i++)
        {
            x[6 + i] = BinaryPrimitives.ReadUInt32LittleEndian(input.Slice(4 * i));
        }

        DoubleRounds(x);

        // HSalsa20 keeps the diagonal and the input positions, without the final addition.
        BinaryPrimitives.WriteUInt32LittleEndian(output, x[0]);
        BinaryPrimitives.WriteUInt32LittleEndian(output.Slice(4), x[5]);
        BinaryPrimitives.WriteUInt32LittleEndian(output.Slice(8), x[10]);
        BinaryPrimitives.WriteUInt32LittleEndian(output.Slice(12), x[15]);
        for (int i = 0; i < 4; i++)
        {
            BinaryPrimitives.WriteUInt32LittleEndian(output.Slice(16 + (4 * i)), x[6 + i]);
        }

        CryptographicOperationsZero(x);
    }

    /// <summary>
    /// XSalsa20: XORs <paramref name="source"/> with the key stream starting at block
    /// <paramref name="firstBlock"/> (byte offset 64 × block). <paramref name="destination"/> may be
    /// <paramref name="source"/> itself (in place), but must not overlap it otherwise.
    /// </summary>
    public static void XSalsa20Xor(ReadOnlySpan<byte> key, ReadOnlySpan<byte> nonce, ulong firstBlock, ReadOnlySpan<byte> source, Span<byte> destination)
    {
        Debug.Assert(nonce.Length == XNonceSize, "An XSalsa20 nonce is 24 octets.");
        Span<byte> subkey = stackalloc byte[KeySize];
        HSalsa20(key, nonce.Slice(0, HInputSize), subkey);
        Salsa20Xor(subkey, nonce.Slice(HInputSize, 8), firstBlock, source, destination);
        System.Security.Cryptography.CryptographicOperations.ZeroMemory(subkey);
    }

    /// <summary>Salsa20/20 with an 8-byte nonce: XORs <paramref name="source"/> with the key stream from block <paramref name="firstBlock"/>.</summary>
    public static void Salsa20Xor(ReadOnlySpan<byte> key, ReadOnlySpan<byte> nonce, ulong firstBlock, ReadOnlySpan<byte> source, Span<byte> destination) =>
        Salsa20Xor(key, nonce, firstBlock, default, source, destination);

    /// <summary>
    /// Blocks 0 and 1 of the Salsa20/20 key stream under each of four 8-octet nonces
    /// (<paramref name="nonces"/>, 32 octets), 128 octets per nonce in their order: with AVX2 one
    /// eight-lane batch, lane 2i + b making block b under nonce i.
    /// </summary>
    [SkipLocalsInit]
    public static void KeyStreamPairs(ReadOnlySpan<byte> key, ReadOnlySpan<byte> nonces, Span<byte> output)
    {
        Debug.Assert(key.Length == KeySize && nonces.Length == 4 * 8 && output.Length >= 4 * 2 * BlockSize, "Salsa20 sizes.");
        if (!Avx2.IsSupported)
        {
            for (int i = 0; i < 4; i++)
            {
                KeyStream(key, nonces.Slice(8 * i, 8), 0, output.Slice(2 * BlockSize * i, 2 * BlockSize));
            }

            return;
        }

        Span<uint> input = stackalloc uint[16];
        SetConstantsAndKey(input, key);

        uint n0 = BinaryPrimitives.ReadUInt32LittleEndian(nonces), m0 = BinaryPrimitives.ReadUInt32LittleEndian(nonces.Slice(4));
        uint n1 = BinaryPrimitives.ReadUInt32LittleEndian(nonces.Slice(8)), m1 = BinaryPrimitives.ReadUInt32LittleEndian(nonces.Slice(12));
        uint n2 = BinaryPrimitives.ReadUInt32LittleEndian(nonces.Slice(16)), m2 = BinaryPrimitives.ReadUInt32LittleEndian(nonces.Slice(20));
        uint n3 = BinaryPrimitives.ReadUInt32LittleEndian(nonces.Slice(24)), m3 = BinaryPrimitives.ReadUInt32LittleEndian(nonces.Slice(28));
        KeyStream256(
            input,
            Vector256.Create(n0, n0, n1, n1, n2, n2, n3, n3),
            Vector256.Create(m0, m0, m1, m1, m2, m2, m3, m3),
            Vector256.Create(0u, 1, 0, 1, 0, 1, 0, 1),
            Vector256<uint>.Zero,
            ref Unsafe.NullRef<byte>(),
            ref MemoryMarshal.GetReference(output));
        CryptographicOperationsZero(input);
    }

    /// <summary>Writes the Salsa20/20 key stream from block <paramref name="firstBlock"/> on into <paramref name="output"/>.</summary>
    public static void KeyStream(ReadOnlySpan<byte> key, ReadOnlySpan<byte> nonce, ulong firstBlock, Span<byte> output)
    {
        output.Clear();
        Salsa20Xor(key, nonce, firstBlock, default, output, output);
    }

    /// <summary>
    /// Salsa20/20 as NaCl's secretbox uses it: the first <c>skipped.Length</c> key-stream octets
    /// (at most one block) are written to <paramref name="skipped"/>, and <paramref name="source"/>
    /// is XORed with the key stream that follows them, so one pass serves the Poly1305 key and the
    /// message (the secretbox CurveZMQ boxes use, RFC 26).
    /// </summary>
    [SkipLocalsInit]
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static void Salsa20Xor(ReadOnlySpan<byte> key, ReadOnlySpan<byte> nonce, ulong firstBlock, Span<byte> skipped, ReadOnlySpan<byte> source, Span<byte> destination)
    {
        Debug.Assert(key.Length == KeySize && nonce.Length == 8, "Salsa20 sizes.");
        Debug.Assert(skipped.Length <= BlockSize, "At most one block is skipped.");
        Debug.Assert(destination.Length >= source.Length, "The destination holds the whole output.");

        // Salsa20's input words: sigma, key, nonce and the 64-bit block counter in words 8-9.
        Span<uint> input = stackalloc uint[16];
        SetConstantsAndKey(input, key);

        input[6] = BinaryPrimitives.ReadUInt32LittleEndian(nonce);
        input[7] = BinaryPrimitives.ReadUInt32LittleEndian(nonce.Slice(4));

        // Key stream is made a batch at a time (16, 8 or 4 blocks side by side, or one scalar
        // block). A whole vector batch of the message is XORed in as it leaves the registers; the
        // skipped octets and a batch that would run past the end of the message go through this
        // buffer and are XORed in from there.
        Span<byte> keyStream = stackalloc byte[MaxBatchBlocks * BlockSize];
        ref byte sourceStart = ref MemoryMarshal.GetReference(source);
        ref byte destinationStart = ref MemoryMarshal.GetReference(destination);
        int used = 0;
        ulong counter = firstBlock;
        int offset = 0;
        int skip = skipped.Length;
        int length = source.Length;
        while (offset < length || skip > 0)
        {
            int needed = skip + length - offset;
            if (skip == 0 && WholeBatch != 0 && needed >= WholeBatch)
            {
                int whole = GenerateBatch(input, counter, needed, ref Unsafe.Add(ref sourceStart, offset), ref Unsafe.Add(ref destinationStart, offset));
                Debug.Assert(whole == WholeBatch, "A whole batch is the widest path's.");
                counter += (ulong)(whole / BlockSize);
                offset += whole;
                continue;
            }

            int produced = GenerateBatch(input, counter, needed, ref Unsafe.NullRef<byte>(), ref MemoryMarshal.GetReference(keyStream));
            used = Math.Max(used, produced);
            counter += (ulong)(produced / BlockSize);
            ReadOnlySpan<byte> stream = keyStream.Slice(0, Math.Min(produced, needed));
            if (skip > 0)
            {
                stream.Slice(0, skip).CopyTo(skipped);
                stream = stream.Slice(skip);
                skip = 0;
            }

            Xor(source.Slice(offset, stream.Length), stream, destination.Slice(offset));
            offset += stream.Length;
        }

        CryptographicOperationsZero(input);
        System.Security.Cryptography.CryptographicOperations.ZeroMemory(keyStream.Slice(0, used));
    }

    /// <summary>Salsa20's input layout: sigma in words 0, 5, 10, 15 and the key's two halves in words 1-4 and 11-14.</summary>
    private static void SetConstantsAndKey(Span<uint> state, ReadOnlySpan<byte> key)
    {
        state[0] = Sigma0;
        state[5] = Sigma1;
        state[10] = Sigma2;
        state[15] = Sigma3;
        for (int i = 0; i < 4; i++)
        {
            state[1 + i] = BinaryPrimitives.ReadUInt32LittleEndian(key.Slice(4 * i));
            state[11 + i] = BinaryPrimitives.ReadUInt32LittleEndian(key.Slice(16 + (4 * i)));
        }
    }

    /// <summary>
    /// The octets of the widest vector path's batch (16, 8 or 4 blocks), which Salsa20Xor XORs
    /// straight into the message when that much is left; 0 without vector hardware.
    /// </summary>
    private static readonly int WholeBatch =
        Vector512.IsHardwareAccelerated && Avx512F.IsSupported ? 16 * BlockSize
        : Avx2.IsSupported ? 8 * BlockSize
        : Vector128.IsHardwareAccelerated ? 4 * BlockSize
        : 0;

    /// <summary>
    /// Puts the key stream of the blocks from <paramref name="counter"/> on at
    /// <paramref name="destination"/> (XORed with <paramref name="source"/> unless that is a null
    /// reference): as many side by side as the widest vector path offers that
    /// <paramref name="needed"/> octets put to use; returns how many octets it wrote. The scalar
    /// block writes key stream only, so a source is given only for <see cref="WholeBatch"/>.
    /// </summary>
    private static int GenerateBatch(ReadOnlySpan<uint> input, ulong counter, int needed, ref byte source, ref byte destination)
    {
        if (needed > 8 * BlockSize && Vector512.IsHardwareAccelerated && Avx512F.IsSupported)
        {
            KeyStream512(input, counter, ref source, ref destination);
            return 16 * BlockSize;
        }

        if (needed > 4 * BlockSize && Avx2.IsSupported)
        {
            KeyStream256(input, counter, ref source, ref destination);
            return 8 * BlockSize;
        }

        if (needed > BlockSize && Vector128.IsHardwareAccelerated)
        {
            KeyStream128(input, counter, ref source, ref destination);
            return 4 * BlockSize;
        }

        Debug.Assert(Unsafe.IsNullRef(ref source), "The scalar block has no XOR.");
        KeyStreamScalar(input, counter, MemoryMarshal.CreateSpan(ref destination, BlockSize));
        return BlockSize;
    }

    /// <summary>One block of key stream: the Salsa20 core of the input with the block counter set.</summary>
    [SkipLocalsInit]
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static void KeyStreamScalar(ReadOnlySpan<uint> input, ulong counter, Span<byte> keyStream)
    {
        Span<uint> block = stackalloc uint[16];
        input.CopyTo(block);
        block[8] = (uint)counter;
        block[9] = (uint)(counter >> 32);
        DoubleRounds(block);
        for (int i = 0; i < 16; i++)
        {
            uint word = i == 8 ? (uint)counter : i == 9 ? (uint)(counter >> 32) : input[i];
            BinaryPrimitives.WriteUInt32LittleEndian(keyStream.Slice(4 * i), block[i] + word);
        }

        CryptographicOperationsZero(block);
    }

    /// <summary>destination = source XOR stream, a vector at a time; destination may be source itself.</summary>
    public static void Xor(ReadOnlySpan<byte> source, ReadOnlySpan<byte> stream, Span<byte> destination)
    {
        // The vector loop below is unchecked: one check here keeps a caller's mistake from writing past the spans.
        int length = source.Length;
        if ((uint)stream.Length < (uint)length || (uint)destination.Length < (uint)length)
        {
            throw new ArgumentException("The key stream and the destination must be at least as long as the source.");
        }

        int i = 0;
        ref byte src = ref MemoryMarshal.GetReference(source);
        ref byte key = ref MemoryMarshal.GetReference(stream);
        ref byte dst = ref MemoryMarshal.GetReference(destination);
        if (Vector256.IsHardwareAccelerated)
        {
            for (; i <= length - Vector256<byte>.Count; i += Vector256<byte>.Count)
            {
                (Vector256.LoadUnsafe(ref src, (nuint)i) ^ Vector256.LoadUnsafe(ref key, (nuint)i)).StoreUnsafe(ref dst, (nuint)i);
            }
        }

        for (; i <= length - Vector128<byte>.Count; i += Vector128<byte>.Count)
        {
            (Vector128.LoadUnsafe(ref src, (nuint)i) ^ Vector128.LoadUnsafe(ref key, (nuint)i)).StoreUnsafe(ref dst, (nuint)i);
        }

        for (; i < length; i++)
        {
            destination[i] = (byte)(source[i] ^ stream[i]);
        }
    }

    /// <summary>Ten Salsa20 double rounds (column round, then row round) on a 16-word state, in place.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static void DoubleRounds(Span<uint> x)
    {
        uint x0 = x[0], x1 = x[1], x2 = x[2], x3 = x[3], x4 = x[4], x5 = x[5], x6 = x[6], x7 = x[7];
        uint x8 = x[8], x9 = x[9], x10 = x[10], x11 = x[11], x12 = x[12], x13 = x[13], x14 = x[14], x15 = x[15];
        for (int round = 0; round < 10; round++)
        {
            // Column round.
            QuarterRound(ref x0, ref x4, ref x8, ref x12);
            QuarterRound(ref x5, ref x9, ref x13, ref x1);
            QuarterRound(ref x10, ref x14, ref x2, ref x6);
            QuarterRound(ref x15, ref x3, ref x7, ref x11);

            // Row round.
            QuarterRound(ref x0, ref x1, ref x2, ref x3);
            QuarterRound(ref x5, ref x6, ref x7, ref x4);
            QuarterRound(ref x10, ref x11, ref x8, ref x9);
            QuarterRound(ref x15, ref x12, ref x13, ref x14);
        }

        x[0] = x0; x[1] = x1; x[2] = x2; x[3] = x3; x[4] = x4; x[5] = x5; x[6] = x6; x[7] = x7;
        x[8] = x8; x[9] = x9; x[10] = x10; x[11] = x11; x[12] = x12; x[13] = x13; x[14] = x14; x[15] = x15;
    }

    /// <summary>Salsa20's quarterround function.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void QuarterRound(ref uint a, ref uint b, ref uint c, ref uint d)
    {
        b ^= BitOperations.RotateLeft(a + d, 7);
        c ^= BitOperations.RotateLeft(b + a, 9);
        d ^= BitOperations.RotateLeft(c + b, 13);
        a ^= BitOperations.RotateLeft(d + c, 18);
    }

    private static void CryptographicOperationsZero(Span<uint> words) =>
        System.Security.Cryptography.CryptographicOperations.ZeroMemory(System.Runtime.InteropServices.MemoryMarshal.AsBytes(words));
}
