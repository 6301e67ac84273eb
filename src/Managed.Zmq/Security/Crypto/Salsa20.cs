using System.Buffers.Binary;
using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics;

namespace Managed.Zmq.Security.Crypto;

/// <summary>
/// The Salsa20/20 core, HSalsa20 and the XSalsa20 stream cipher, written from D. J. Bernstein's
/// "Salsa20 specification" and "Extending the Salsa20 nonce" papers.
/// </summary>
/// <remarks>
/// Everything here is data-independent: the same additions, XORs and fixed rotations run
/// whatever the key, so nothing leaks through timing. Several 64-byte blocks are computed side by
/// side with one block per vector lane (Vector256: 8 blocks, Vector128: 4 blocks) when the
/// hardware accelerates it; the scalar core handles the tail and machines without SIMD.
/// </remarks>
internal static class Salsa20
{
    /// <summary>The Salsa20 block size.</summary>
    public const int BlockSize = 64;

    /// <summary>The key size of Salsa20, HSalsa20 and XSalsa20.</summary>
    public const int KeySize = 32;

    /// <summary>The XSalsa20 nonce size.</summary>
    public const int XNonceSize = 24;

    /// <summary>The HSalsa20 input size.</summary>
    public const int HInputSize = 16;

    // "expand 32-byte k" as four little-endian words (Salsa20 specification §9, the sigma constants).
    private const uint Sigma0 = 0x61707865;
    private const uint Sigma1 = 0x3320646e;
    private const uint Sigma2 = 0x79622d32;
    private const uint Sigma3 = 0x6b206574;

    /// <summary>HSalsa20: derives a 32-byte subkey from a key and a 16-byte input ("Extending the Salsa20 nonce" §2).</summary>
    public static void HSalsa20(ReadOnlySpan<byte> key, ReadOnlySpan<byte> input, Span<byte> output)
    {
        Debug.Assert(key.Length == KeySize && input.Length == HInputSize && output.Length >= KeySize, "HSalsa20 sizes.");
        Span<uint> x = stackalloc uint[16];
        x[0] = Sigma0;
        x[5] = Sigma1;
        x[10] = Sigma2;
        x[15] = Sigma3;
        for (int i = 0; i < 4; i++)
        {
            x[1 + i] = BinaryPrimitives.ReadUInt32LittleEndian(key.Slice(4 * i));
            x[11 + i] = BinaryPrimitives.ReadUInt32LittleEndian(key.Slice(16 + (4 * i)));
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
    public static void Salsa20Xor(ReadOnlySpan<byte> key, ReadOnlySpan<byte> nonce, ulong firstBlock, ReadOnlySpan<byte> source, Span<byte> destination)
    {
        Debug.Assert(key.Length == KeySize && nonce.Length == 8, "Salsa20 sizes.");
        Debug.Assert(destination.Length >= source.Length, "The destination holds the whole output.");

        // Salsa20 specification §9-§10: sigma, key, nonce and the 64-bit block counter in words 8-9.
        Span<uint> input = stackalloc uint[16];
        input[0] = Sigma0;
        input[5] = Sigma1;
        input[10] = Sigma2;
        input[15] = Sigma3;
        for (int i = 0; i < 4; i++)
        {
            input[1 + i] = BinaryPrimitives.ReadUInt32LittleEndian(key.Slice(4 * i));
            input[11 + i] = BinaryPrimitives.ReadUInt32LittleEndian(key.Slice(16 + (4 * i)));
        }

        input[6] = BinaryPrimitives.ReadUInt32LittleEndian(nonce);
        input[7] = BinaryPrimitives.ReadUInt32LittleEndian(nonce.Slice(4));

        ulong counter = firstBlock;
        int offset = 0;
        int length = source.Length;

        if (Vector256.IsHardwareAccelerated)
        {
            while (length - offset >= 8 * BlockSize)
            {
                XorBlocks256(input, counter, source.Slice(offset, 8 * BlockSize), destination.Slice(offset));
                counter += 8;
                offset += 8 * BlockSize;
            }
        }

        if (Vector128.IsHardwareAccelerated)
        {
            while (length - offset >= 4 * BlockSize)
            {
                XorBlocks128(input, counter, source.Slice(offset, 4 * BlockSize), destination.Slice(offset));
                counter += 4;
                offset += 4 * BlockSize;
            }
        }

        Span<uint> block = stackalloc uint[16];
        Span<byte> stream = stackalloc byte[BlockSize];
        while (offset < length)
        {
            input[8] = (uint)counter;
            input[9] = (uint)(counter >> 32);
            input.CopyTo(block);
            DoubleRounds(block);
            for (int i = 0; i < 16; i++)
            {
                BinaryPrimitives.WriteUInt32LittleEndian(stream.Slice(4 * i), block[i] + input[i]);
            }

            int take = Math.Min(BlockSize, length - offset);
            for (int i = 0; i < take; i++)
            {
                destination[offset + i] = (byte)(source[offset + i] ^ stream[i]);
            }

            counter++;
            offset += take;
        }

        CryptographicOperationsZero(input);
        CryptographicOperationsZero(block);
        System.Security.Cryptography.CryptographicOperations.ZeroMemory(stream);
    }

    /// <summary>Ten double rounds (Salsa20 specification §4-§7) on a 16-word state, in place.</summary>
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

    /// <summary>The quarterround function of the Salsa20 specification §3.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void QuarterRound(ref uint a, ref uint b, ref uint c, ref uint d)
    {
        b ^= BitOperations.RotateLeft(a + d, 7);
        c ^= BitOperations.RotateLeft(b + a, 9);
        d ^= BitOperations.RotateLeft(c + b, 13);
        a ^= BitOperations.RotateLeft(d + c, 18);
    }

    /// <summary>Four blocks at once, one per Vector128 lane, XORed into the output.</summary>
    private static void XorBlocks128(ReadOnlySpan<uint> input, ulong counter, ReadOnlySpan<byte> source, Span<byte> destination)
    {
        const int Lanes = 4;
        Span<Vector128<uint>> x = stackalloc Vector128<uint>[16];
        for (int i = 0; i < 16; i++)
        {
            x[i] = Vector128.Create(input[i]);
        }

        x[8] = Vector128.Create((uint)counter, (uint)(counter + 1), (uint)(counter + 2), (uint)(counter + 3));
        x[9] = Vector128.Create((uint)(counter >> 32), (uint)((counter + 1) >> 32), (uint)((counter + 2) >> 32), (uint)((counter + 3) >> 32));

        Span<Vector128<uint>> y = stackalloc Vector128<uint>[16];
        x.CopyTo(y);
        for (int round = 0; round < 10; round++)
        {
            QuarterRound128(y, 0, 4, 8, 12);
            QuarterRound128(y, 5, 9, 13, 1);
            QuarterRound128(y, 10, 14, 2, 6);
            QuarterRound128(y, 15, 3, 7, 11);
            QuarterRound128(y, 0, 1, 2, 3);
            QuarterRound128(y, 5, 6, 7, 4);
            QuarterRound128(y, 10, 11, 8, 9);
            QuarterRound128(y, 15, 12, 13, 14);
        }

        Span<uint> words = stackalloc uint[16 * Lanes];
        for (int i = 0; i < 16; i++)
        {
            (y[i] + x[i]).CopyTo(words.Slice(i * Lanes));
        }

        ScatterXor(words, Lanes, source, destination);
        y.Clear();
        x.Clear();
        CryptographicOperationsZero(words);
    }

    /// <summary>Eight blocks at once, one per Vector256 lane, XORed into the output.</summary>
    private static void XorBlocks256(ReadOnlySpan<uint> input, ulong counter, ReadOnlySpan<byte> source, Span<byte> destination)
    {
        const int Lanes = 8;
        Span<Vector256<uint>> x = stackalloc Vector256<uint>[16];
        for (int i = 0; i < 16; i++)
        {
            x[i] = Vector256.Create(input[i]);
        }

        Span<uint> low = stackalloc uint[Lanes];
        Span<uint> high = stackalloc uint[Lanes];
        for (int lane = 0; lane < Lanes; lane++)
        {
            ulong blockCounter = counter + (ulong)lane;
            low[lane] = (uint)blockCounter;
            high[lane] = (uint)(blockCounter >> 32);
        }

        x[8] = Vector256.Create<uint>(low);
        x[9] = Vector256.Create<uint>(high);

        Span<Vector256<uint>> y = stackalloc Vector256<uint>[16];
        x.CopyTo(y);
        for (int round = 0; round < 10; round++)
        {
            QuarterRound256(y, 0, 4, 8, 12);
            QuarterRound256(y, 5, 9, 13, 1);
            QuarterRound256(y, 10, 14, 2, 6);
            QuarterRound256(y, 15, 3, 7, 11);
            QuarterRound256(y, 0, 1, 2, 3);
            QuarterRound256(y, 5, 6, 7, 4);
            QuarterRound256(y, 10, 11, 8, 9);
            QuarterRound256(y, 15, 12, 13, 14);
        }

        Span<uint> words = stackalloc uint[16 * Lanes];
        for (int i = 0; i < 16; i++)
        {
            (y[i] + x[i]).CopyTo(words.Slice(i * Lanes));
        }

        ScatterXor(words, Lanes, source, destination);
        y.Clear();
        x.Clear();
        CryptographicOperationsZero(words);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void QuarterRound128(Span<Vector128<uint>> y, int a, int b, int c, int d)
    {
        y[b] ^= Rotate(y[a] + y[d], 7);
        y[c] ^= Rotate(y[b] + y[a], 9);
        y[d] ^= Rotate(y[c] + y[b], 13);
        y[a] ^= Rotate(y[d] + y[c], 18);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void QuarterRound256(Span<Vector256<uint>> y, int a, int b, int c, int d)
    {
        y[b] ^= Rotate(y[a] + y[d], 7);
        y[c] ^= Rotate(y[b] + y[a], 9);
        y[d] ^= Rotate(y[c] + y[b], 13);
        y[a] ^= Rotate(y[d] + y[c], 18);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector128<uint> Rotate(Vector128<uint> value, [ConstantExpected] int count) =>
        Vector128.ShiftLeft(value, count) | Vector128.ShiftRightLogical(value, 32 - count);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector256<uint> Rotate(Vector256<uint> value, [ConstantExpected] int count) =>
        Vector256.ShiftLeft(value, count) | Vector256.ShiftRightLogical(value, 32 - count);

    /// <summary>XORs lane-major key stream words (word i of block j at i × lanes + j) into the output blocks.</summary>
    private static void ScatterXor(ReadOnlySpan<uint> words, int lanes, ReadOnlySpan<byte> source, Span<byte> destination)
    {
        for (int lane = 0; lane < lanes; lane++)
        {
            int blockOffset = lane * BlockSize;
            for (int i = 0; i < 16; i++)
            {
                int o = blockOffset + (4 * i);
                uint value = BinaryPrimitives.ReadUInt32LittleEndian(source.Slice(o)) ^ words[(i * lanes) + lane];
                BinaryPrimitives.WriteUInt32LittleEndian(destination.Slice(o), value);
            }
        }
    }

    private static void CryptographicOperationsZero(Span<uint> words) =>
        System.Security.Cryptography.CryptographicOperations.ZeroMemory(System.Runtime.InteropServices.MemoryMarshal.AsBytes(words));
}
