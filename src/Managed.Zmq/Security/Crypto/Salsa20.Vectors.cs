using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace Managed.Zmq.Security.Crypto;

/// <summary>
/// The Salsa20 core on 4, 8 or 16 blocks at once, one block per vector lane: vector i holds word
/// i of every block, so each quarterround is the scalar one on whole vectors.
/// </summary>
/// <remarks>
/// <para>With AVX-512 (32 vector registers) the sixteen state words stay in locals, which the JIT
/// keeps in registers, and a rotation is one instruction (VPROLD) instead of two shifts and an OR.
/// The 256- and 128-bit paths run where there are only sixteen, so four of the words live in stack
/// memory (see KeyStream256), and the quarterrounds of a round advance two at a time, a step each.</para>
/// <para>The result is lane-major (word i of block j in lane j of vector i); the store transposes
/// it four words at a time with two rounds of unpacks, so each 16-octet piece of a block leaves in
/// one store.</para>
/// </remarks>
internal static partial class Salsa20
{
    /// <summary>Sixteen blocks from <paramref name="counter"/> on: 1,024 octets of key stream, put as <see cref="Put"/> says.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static void KeyStream512(ReadOnlySpan<uint> input, ulong counter, ref byte source, ref byte destination)
    {
        Vector512<uint> j0 = Vector512.Create(input[0]), j1 = Vector512.Create(input[1]), j2 = Vector512.Create(input[2]), j3 = Vector512.Create(input[3]);
        Vector512<uint> j4 = Vector512.Create(input[4]), j5 = Vector512.Create(input[5]), j6 = Vector512.Create(input[6]), j7 = Vector512.Create(input[7]);
        Vector512<uint> j10 = Vector512.Create(input[10]), j11 = Vector512.Create(input[11]);
        Vector512<uint> j12 = Vector512.Create(input[12]), j13 = Vector512.Create(input[13]), j14 = Vector512.Create(input[14]), j15 = Vector512.Create(input[15]);
        (Vector512<uint> j8, Vector512<uint> j9) = Counters512(counter);
        Vector512<uint> x0 = j0, x1 = j1, x2 = j2, x3 = j3, x4 = j4, x5 = j5, x6 = j6, x7 = j7;
        Vector512<uint> x8 = j8, x9 = j9, x10 = j10, x11 = j11, x12 = j12, x13 = j13, x14 = j14, x15 = j15;
        for (int round = 0; round < 10; round++)
        {
            QuarterRound(ref x0, ref x4, ref x8, ref x12);
            QuarterRound(ref x5, ref x9, ref x13, ref x1);
            QuarterRound(ref x10, ref x14, ref x2, ref x6);
            QuarterRound(ref x15, ref x3, ref x7, ref x11);
            QuarterRound(ref x0, ref x1, ref x2, ref x3);
            QuarterRound(ref x5, ref x6, ref x7, ref x4);
            QuarterRound(ref x10, ref x11, ref x8, ref x9);
            QuarterRound(ref x15, ref x12, ref x13, ref x14);
        }

        // Salsa20's block function: the output is the rounds' result plus the input words.
        Store512(x0 + j0, x1 + j1, x2 + j2, x3 + j3, ref source, ref destination, 0);
        Store512(x4 + j4, x5 + j5, x6 + j6, x7 + j7, ref source, ref destination, 1);
        Store512(x8 + j8, x9 + j9, x10 + j10, x11 + j11, ref source, ref destination, 2);
        Store512(x12 + j12, x13 + j13, x14 + j14, x15 + j15, ref source, ref destination, 3);
    }

    /// <summary>Eight blocks from <paramref name="counter"/> on: 512 octets of key stream, put as <see cref="Put"/> says.</summary>
    private static void KeyStream256(ReadOnlySpan<uint> input, ulong counter, ref byte source, ref byte destination)
    {
        (Vector256<uint> low, Vector256<uint> high) = Counters256(counter);
        KeyStream256(input, Vector256.Create(input[6]), Vector256.Create(input[7]), low, high, ref source, ref destination);
    }

    /// <summary>
    /// Eight blocks whose words 6-9 (Salsa20's nonce and block counter) are given
    /// per lane: 512 octets of key stream, put as <see cref="Put"/> says; the other words come from
    /// <paramref name="input"/>.
    /// </summary>
    [SkipLocalsInit]
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static void KeyStream256(ReadOnlySpan<uint> input, Vector256<uint> j6, Vector256<uint> j7, Vector256<uint> j8, Vector256<uint> j9, ref byte source, ref byte destination)
    {
        Vector256<uint> j0 = Vector256.Create(input[0]), j1 = Vector256.Create(input[1]), j2 = Vector256.Create(input[2]), j3 = Vector256.Create(input[3]);
        Vector256<uint> j4 = Vector256.Create(input[4]), j5 = Vector256.Create(input[5]);
        Vector256<uint> j10 = Vector256.Create(input[10]), j11 = Vector256.Create(input[11]);
        Vector256<uint> j12 = Vector256.Create(input[12]), j13 = Vector256.Create(input[13]), j14 = Vector256.Create(input[14]), j15 = Vector256.Create(input[15]);

        // Without AVX-512 there are sixteen vector registers: the sixteen state words and the two
        // temporaries of a rotation do not fit, and the JIT then spills the temporaries, putting
        // memory on every step's dependency chain. The diagonal words 0, 5, 10 and 15 stay in memory
        // instead: each is the first word of its quarterround in both rounds, read in the first two
        // steps and written in the last, so no load waits on a store just made.
        Span<Vector256<uint>> held = stackalloc Vector256<uint>[4];
        ref Vector256<uint> x0 = ref held[0], x5 = ref held[1], x10 = ref held[2], x15 = ref held[3];
        x0 = j0;
        x5 = j5;
        x10 = j10;
        x15 = j15;
        Vector256<uint> x1 = j1, x2 = j2, x3 = j3, x4 = j4, x6 = j6, x7 = j7;
        Vector256<uint> x8 = j8, x9 = j9, x11 = j11, x12 = j12, x13 = j13, x14 = j14;
        for (int round = 0; round < 10; round++)
        {
            QuarterRounds(ref x0, ref x4, ref x8, ref x12, ref x5, ref x9, ref x13, ref x1, ref x10, ref x14, ref x2, ref x6, ref x15, ref x3, ref x7, ref x11);
            QuarterRounds(ref x0, ref x1, ref x2, ref x3, ref x5, ref x6, ref x7, ref x4, ref x10, ref x11, ref x8, ref x9, ref x15, ref x12, ref x13, ref x14);
        }

        // Salsa20's block function: the output is the rounds' result plus the input words.
        Store256(x0 + j0, x1 + j1, x2 + j2, x3 + j3, ref source, ref destination, 0);
        Store256(x4 + j4, x5 + j5, x6 + j6, x7 + j7, ref source, ref destination, 1);
        Store256(x8 + j8, x9 + j9, x10 + j10, x11 + j11, ref source, ref destination, 2);
        Store256(x12 + j12, x13 + j13, x14 + j14, x15 + j15, ref source, ref destination, 3);

        // Cleared in line: a call to CryptographicOperations.ZeroMemory here, once per batch, was a
        // large share of each batch's time in a profile.
        held.Clear();
    }

    /// <summary>Four blocks from <paramref name="counter"/> on: 256 octets of key stream, put as <see cref="Put"/> says.</summary>
    [SkipLocalsInit]
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static void KeyStream128(ReadOnlySpan<uint> input, ulong counter, ref byte source, ref byte destination)
    {
        Vector128<uint> j0 = Vector128.Create(input[0]), j1 = Vector128.Create(input[1]), j2 = Vector128.Create(input[2]), j3 = Vector128.Create(input[3]);
        Vector128<uint> j4 = Vector128.Create(input[4]), j5 = Vector128.Create(input[5]), j6 = Vector128.Create(input[6]), j7 = Vector128.Create(input[7]);
        Vector128<uint> j10 = Vector128.Create(input[10]), j11 = Vector128.Create(input[11]);
        Vector128<uint> j12 = Vector128.Create(input[12]), j13 = Vector128.Create(input[13]), j14 = Vector128.Create(input[14]), j15 = Vector128.Create(input[15]);
        (Vector128<uint> j8, Vector128<uint> j9) = Counters128(counter);

        // Sixteen registers, as in KeyStream256: the diagonal words stay in memory.
        Span<Vector128<uint>> held = stackalloc Vector128<uint>[4];
        ref Vector128<uint> x0 = ref held[0], x5 = ref held[1], x10 = ref held[2], x15 = ref held[3];
        x0 = j0;
        x5 = j5;
        x10 = j10;
        x15 = j15;
        Vector128<uint> x1 = j1, x2 = j2, x3 = j3, x4 = j4, x6 = j6, x7 = j7;
        Vector128<uint> x8 = j8, x9 = j9, x11 = j11, x12 = j12, x13 = j13, x14 = j14;
        for (int round = 0; round < 10; round++)
        {
            QuarterRounds(ref x0, ref x4, ref x8, ref x12, ref x5, ref x9, ref x13, ref x1, ref x10, ref x14, ref x2, ref x6, ref x15, ref x3, ref x7, ref x11);
            QuarterRounds(ref x0, ref x1, ref x2, ref x3, ref x5, ref x6, ref x7, ref x4, ref x10, ref x11, ref x8, ref x9, ref x15, ref x12, ref x13, ref x14);
        }

        // Salsa20's block function: the output is the rounds' result plus the input words.
        Store128(x0 + j0, x1 + j1, x2 + j2, x3 + j3, ref source, ref destination, 0);
        Store128(x4 + j4, x5 + j5, x6 + j6, x7 + j7, ref source, ref destination, 1);
        Store128(x8 + j8, x9 + j9, x10 + j10, x11 + j11, ref source, ref destination, 2);
        Store128(x12 + j12, x13 + j13, x14 + j14, x15 + j15, ref source, ref destination, 3);
        held.Clear();
    }

    /// <summary>Words 8 and 9 of 16 consecutive blocks: the low and high halves of counter + lane.</summary>
    private static (Vector512<uint> Low, Vector512<uint> High) Counters512(ulong counter)
    {
        Vector512<uint> first = Vector512.Create((uint)counter);
        Vector512<uint> low = first + Vector512.Create(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15u);

        // A lane whose low word wrapped carries one into its high word (LessThan gives all ones, -1).
        Vector512<uint> high = Vector512.Create((uint)(counter >> 32)) - Vector512.LessThan(low, first);
        return (low, high);
    }

    /// <summary>Words 8 and 9 of 8 consecutive blocks: the low and high halves of counter + lane.</summary>
    private static (Vector256<uint> Low, Vector256<uint> High) Counters256(ulong counter)
    {
        Vector256<uint> first = Vector256.Create((uint)counter);
        Vector256<uint> low = first + Vector256.Create(0, 1, 2, 3, 4, 5, 6, 7u);

        // A lane whose low word wrapped carries one into its high word (LessThan gives all ones, -1).
        Vector256<uint> high = Vector256.Create((uint)(counter >> 32)) - Vector256.LessThan(low, first);
        return (low, high);
    }

    /// <summary>Words 8 and 9 of 4 consecutive blocks: the low and high halves of counter + lane.</summary>
    private static (Vector128<uint> Low, Vector128<uint> High) Counters128(ulong counter)
    {
        Vector128<uint> first = Vector128.Create((uint)counter);
        Vector128<uint> low = first + Vector128.Create(0, 1, 2, 3u);

        // A lane whose low word wrapped carries one into its high word (LessThan gives all ones, -1).
        Vector128<uint> high = Vector128.Create((uint)(counter >> 32)) - Vector128.LessThan(low, first);
        return (low, high);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void QuarterRound(ref Vector512<uint> a, ref Vector512<uint> b, ref Vector512<uint> c, ref Vector512<uint> d)
    {
        b ^= Rotate(a + d, 7);
        c ^= Rotate(b + a, 9);
        d ^= Rotate(c + b, 13);
        a ^= Rotate(d + c, 18);
    }

    /// <summary>
    /// The four independent quarterrounds of a column or row round, two at a time, a step of each
    /// in turn: one quarterround is a chain where each step waits on the last, so the other's step
    /// fills the execution ports meanwhile. Two rather than four keeps the words in use, and so the
    /// registers they need, to eight, within what a CPU without AVX-512 has.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void QuarterRounds(
        ref Vector256<uint> a0, ref Vector256<uint> b0, ref Vector256<uint> c0, ref Vector256<uint> d0,
        ref Vector256<uint> a1, ref Vector256<uint> b1, ref Vector256<uint> c1, ref Vector256<uint> d1,
        ref Vector256<uint> a2, ref Vector256<uint> b2, ref Vector256<uint> c2, ref Vector256<uint> d2,
        ref Vector256<uint> a3, ref Vector256<uint> b3, ref Vector256<uint> c3, ref Vector256<uint> d3)
    {
        b0 ^= Rotate(a0 + d0, 7);
        b1 ^= Rotate(a1 + d1, 7);
        c0 ^= Rotate(b0 + a0, 9);
        c1 ^= Rotate(b1 + a1, 9);
        d0 ^= Rotate(c0 + b0, 13);
        d1 ^= Rotate(c1 + b1, 13);
        a0 ^= Rotate(d0 + c0, 18);
        a1 ^= Rotate(d1 + c1, 18);
        b2 ^= Rotate(a2 + d2, 7);
        b3 ^= Rotate(a3 + d3, 7);
        c2 ^= Rotate(b2 + a2, 9);
        c3 ^= Rotate(b3 + a3, 9);
        d2 ^= Rotate(c2 + b2, 13);
        d3 ^= Rotate(c3 + b3, 13);
        a2 ^= Rotate(d2 + c2, 18);
        a3 ^= Rotate(d3 + c3, 18);
    }

    /// <summary>The four quarterrounds of a round, two at a time, as for 256-bit vectors.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void QuarterRounds(
        ref Vector128<uint> a0, ref Vector128<uint> b0, ref Vector128<uint> c0, ref Vector128<uint> d0,
        ref Vector128<uint> a1, ref Vector128<uint> b1, ref Vector128<uint> c1, ref Vector128<uint> d1,
        ref Vector128<uint> a2, ref Vector128<uint> b2, ref Vector128<uint> c2, ref Vector128<uint> d2,
        ref Vector128<uint> a3, ref Vector128<uint> b3, ref Vector128<uint> c3, ref Vector128<uint> d3)
    {
        b0 ^= Rotate(a0 + d0, 7);
        b1 ^= Rotate(a1 + d1, 7);
        c0 ^= Rotate(b0 + a0, 9);
        c1 ^= Rotate(b1 + a1, 9);
        d0 ^= Rotate(c0 + b0, 13);
        d1 ^= Rotate(c1 + b1, 13);
        a0 ^= Rotate(d0 + c0, 18);
        a1 ^= Rotate(d1 + c1, 18);
        b2 ^= Rotate(a2 + d2, 7);
        b3 ^= Rotate(a3 + d3, 7);
        c2 ^= Rotate(b2 + a2, 9);
        c3 ^= Rotate(b3 + a3, 9);
        d2 ^= Rotate(c2 + b2, 13);
        d3 ^= Rotate(c3 + b3, 13);
        a2 ^= Rotate(d2 + c2, 18);
        a3 ^= Rotate(d3 + c3, 18);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector512<uint> Rotate(Vector512<uint> value, [ConstantExpected] byte count) =>
        Avx512F.RotateLeft(value, count);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector256<uint> Rotate(Vector256<uint> value, [ConstantExpected] byte count) =>
        Avx512F.VL.IsSupported
            ? Avx512F.VL.RotateLeft(value, count)
            : Vector256.ShiftLeft(value, count) | Vector256.ShiftRightLogical(value, 32 - count);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector128<uint> Rotate(Vector128<uint> value, [ConstantExpected] byte count) =>
        Avx512F.VL.IsSupported
            ? Avx512F.VL.RotateLeft(value, count)
            : Vector128.ShiftLeft(value, count) | Vector128.ShiftRightLogical(value, 32 - count);

    /// <summary>
    /// Stores words 4k..4k+3 of sixteen blocks: after the unpacks, 128-bit piece c of u_j holds those
    /// words of block j + 4c.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Store512(Vector512<uint> a, Vector512<uint> b, Vector512<uint> c, Vector512<uint> d, ref byte source, ref byte destination, int k)
    {
        Vector512<ulong> t0 = Avx512F.UnpackLow(a, b).AsUInt64();
        Vector512<ulong> t1 = Avx512F.UnpackHigh(a, b).AsUInt64();
        Vector512<ulong> t2 = Avx512F.UnpackLow(c, d).AsUInt64();
        Vector512<ulong> t3 = Avx512F.UnpackHigh(c, d).AsUInt64();
        Store4(Avx512F.UnpackLow(t0, t2).AsByte(), ref source, ref destination, (16 * k) + (0 * BlockSize));
        Store4(Avx512F.UnpackHigh(t0, t2).AsByte(), ref source, ref destination, (16 * k) + (1 * BlockSize));
        Store4(Avx512F.UnpackLow(t1, t3).AsByte(), ref source, ref destination, (16 * k) + (2 * BlockSize));
        Store4(Avx512F.UnpackHigh(t1, t3).AsByte(), ref source, ref destination, (16 * k) + (3 * BlockSize));
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Store4(Vector512<byte> pieces, ref byte source, ref byte destination, int offset)
    {
        Put(pieces.GetLower().GetLower(), ref source, ref destination, offset);
        Put(pieces.GetLower().GetUpper(), ref source, ref destination, offset + (4 * BlockSize));
        Put(pieces.GetUpper().GetLower(), ref source, ref destination, offset + (8 * BlockSize));
        Put(pieces.GetUpper().GetUpper(), ref source, ref destination, offset + (12 * BlockSize));
    }

    /// <summary>Stores words 4k..4k+3 of eight blocks: the low half of u_j is block j, the high half block j + 4.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Store256(Vector256<uint> a, Vector256<uint> b, Vector256<uint> c, Vector256<uint> d, ref byte source, ref byte destination, int k)
    {
        Vector256<ulong> t0 = Avx2.UnpackLow(a, b).AsUInt64();
        Vector256<ulong> t1 = Avx2.UnpackHigh(a, b).AsUInt64();
        Vector256<ulong> t2 = Avx2.UnpackLow(c, d).AsUInt64();
        Vector256<ulong> t3 = Avx2.UnpackHigh(c, d).AsUInt64();
        Store2(Avx2.UnpackLow(t0, t2).AsByte(), ref source, ref destination, (16 * k) + (0 * BlockSize));
        Store2(Avx2.UnpackHigh(t0, t2).AsByte(), ref source, ref destination, (16 * k) + (1 * BlockSize));
        Store2(Avx2.UnpackLow(t1, t3).AsByte(), ref source, ref destination, (16 * k) + (2 * BlockSize));
        Store2(Avx2.UnpackHigh(t1, t3).AsByte(), ref source, ref destination, (16 * k) + (3 * BlockSize));
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Store2(Vector256<byte> pieces, ref byte source, ref byte destination, int offset)
    {
        Put(pieces.GetLower(), ref source, ref destination, offset);
        Put(pieces.GetUpper(), ref source, ref destination, offset + (4 * BlockSize));
    }

    /// <summary>Stores words 4k..4k+3 of four blocks (a 4×4 transpose), with SSE2 unpacks or, elsewhere, word by word.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Store128(Vector128<uint> a, Vector128<uint> b, Vector128<uint> c, Vector128<uint> d, ref byte source, ref byte destination, int k)
    {
        if (Sse2.IsSupported)
        {
            Vector128<ulong> t0 = Sse2.UnpackLow(a, b).AsUInt64();
            Vector128<ulong> t1 = Sse2.UnpackHigh(a, b).AsUInt64();
            Vector128<ulong> t2 = Sse2.UnpackLow(c, d).AsUInt64();
            Vector128<ulong> t3 = Sse2.UnpackHigh(c, d).AsUInt64();
            Put(Sse2.UnpackLow(t0, t2).AsByte(), ref source, ref destination, (16 * k) + (0 * BlockSize));
            Put(Sse2.UnpackHigh(t0, t2).AsByte(), ref source, ref destination, (16 * k) + (1 * BlockSize));
            Put(Sse2.UnpackLow(t1, t3).AsByte(), ref source, ref destination, (16 * k) + (2 * BlockSize));
            Put(Sse2.UnpackHigh(t1, t3).AsByte(), ref source, ref destination, (16 * k) + (3 * BlockSize));
            return;
        }

        for (int block = 0; block < 4; block++)
        {
            int offset = (block * BlockSize) + (16 * k);
            Put(Vector128.Create(a[block], b[block], c[block], d[block]).AsByte(), ref source, ref destination, offset);
        }
    }

    /// <summary>
    /// Puts 16 octets of key stream at <paramref name="offset"/>: into <paramref name="destination"/>
    /// as they are when <paramref name="source"/> is a null reference, else XORed with the source's
    /// octets at the same offset, so that whole batches of a message never hold their key stream in
    /// memory (the caller has checked both spans hold the batch; destination may be source itself).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Put(Vector128<byte> piece, ref byte source, ref byte destination, int offset)
    {
        if (!Unsafe.IsNullRef(ref source))
        {
            piece ^= Vector128.LoadUnsafe(ref source, (nuint)offset);
        }

        piece.StoreUnsafe(ref destination, (nuint)offset);
    }
}
