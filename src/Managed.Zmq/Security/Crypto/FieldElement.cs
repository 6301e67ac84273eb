using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics.X86;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Security.Crypto;

/// <summary>
/// An element of GF(2^255 - 19) (RFC 7748 §4.1) as five 51-bit limbs, value = Σ limb[i] × 2^(51 i).
/// </summary>
/// <remarks>
/// <para>Every operation runs the same instructions whatever the values: carries are shifts and masks,
/// the conditional swap and move are masks, and the final reduction adds 19 q and drops bit 255 (q from the same carries).</para>
/// <para>Limbs stay below 2^52 between operations: every operation returns them so. The products
/// (Multiply, Square, MultiplySmall) and ToBytes accept limbs below 2^54. For the products that is the edge, not a
/// margin: the sum that starts position 0 (at NextLimb) outgrows 64 bits a little above it.</para>
/// </remarks>
[StructLayout(LayoutKind.Sequential)]
internal struct FieldElement
{
    private const ulong Mask51 = (1UL << 51) - 1;

    public ulong L0;
    public ulong L1;
    public ulong L2;
    public ulong L3;
    public ulong L4;

    public static FieldElement Zero => default;

    public static FieldElement One => new() { L0 = 1 };

    /// <summary>Decodes 32 little-endian octets, ignoring the top bit (RFC 7748 §5: "mask the most significant bit").</summary>
    public static FieldElement FromBytes(ReadOnlySpan<byte> bytes)
    {
        ulong w0 = BinaryPrimitives.ReadUInt64LittleEndian(bytes);
        ulong w1 = BinaryPrimitives.ReadUInt64LittleEndian(bytes.Slice(8));
        ulong w2 = BinaryPrimitives.ReadUInt64LittleEndian(bytes.Slice(16));
        ulong w3 = BinaryPrimitives.ReadUInt64LittleEndian(bytes.Slice(24));
        return new FieldElement
        {
            L0 = w0 & Mask51,
            L1 = ((w0 >> 51) | (w1 << 13)) & Mask51,
            L2 = ((w1 >> 38) | (w2 << 26)) & Mask51,
            L3 = ((w2 >> 25) | (w3 << 39)) & Mask51,
            L4 = (w3 >> 12) & Mask51,
        };
    }

    /// <summary>Encodes the canonical value (fully reduced below p) as 32 little-endian octets.</summary>
    public readonly void ToBytes(Span<byte> bytes)
    {
        FieldElement h = this;
        h.Carry();

        // h is now below 2^255 + small; q = 1 exactly when h >= p, found by adding 19 and looking at bit 255.
        ulong q = (h.L0 + 19) >> 51;
        q = (h.L1 + q) >> 51;
        q = (h.L2 + q) >> 51;
        q = (h.L3 + q) >> 51;
        q = (h.L4 + q) >> 51;

        // h - q p = h + 19 q - q 2^255: add 19 q, carry, and drop bit 255.
        h.L0 += 19 * q;
        h.L1 += h.L0 >> 51; h.L0 &= Mask51;
        h.L2 += h.L1 >> 51; h.L1 &= Mask51;
        h.L3 += h.L2 >> 51; h.L2 &= Mask51;
        h.L4 += h.L3 >> 51; h.L3 &= Mask51;
        h.L4 &= Mask51;

        BinaryPrimitives.WriteUInt64LittleEndian(bytes, h.L0 | (h.L1 << 51));
        BinaryPrimitives.WriteUInt64LittleEndian(bytes.Slice(8), (h.L1 >> 13) | (h.L2 << 38));
        BinaryPrimitives.WriteUInt64LittleEndian(bytes.Slice(16), (h.L2 >> 26) | (h.L3 << 25));
        BinaryPrimitives.WriteUInt64LittleEndian(bytes.Slice(24), (h.L3 >> 39) | (h.L4 << 12));
    }

    /// <summary>a + b, carried.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static FieldElement Add(in FieldElement a, in FieldElement b)
    {
        var r = new FieldElement
        {
            L0 = a.L0 + b.L0,
            L1 = a.L1 + b.L1,
            L2 = a.L2 + b.L2,
            L3 = a.L3 + b.L3,
            L4 = a.L4 + b.L4,
        };
        r.Carry();
        return r;
    }

    /// <summary>a - b, computed as a + 4p - b so that no limb goes negative, carried.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static FieldElement Subtract(in FieldElement a, in FieldElement b)
    {
        // 4p in limbs: 4 (2^51 - 19) for the lowest, 4 (2^51 - 1) for the others.
        const ulong FourP0 = 0x1FFFFFFFFFFFB4;
        const ulong FourP = 0x1FFFFFFFFFFFFC;
        var r = new FieldElement
        {
            L0 = a.L0 + FourP0 - b.L0,
            L1 = a.L1 + FourP - b.L1,
            L2 = a.L2 + FourP - b.L2,
            L3 = a.L3 + FourP - b.L3,
            L4 = a.L4 + FourP - b.L4,
        };
        r.Carry();
        return r;
    }

    /// <remarks>
    /// Carries each position as soon as it is complete: the products need more registers than x64 has, and fewer
    /// sums kept alive means fewer spills.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static FieldElement Multiply(in FieldElement a, in FieldElement b)
    {
        // 2^255 = 19 (mod p): products that land at 2^255 and above come back multiplied by 19.
        ulong b1x19 = b.L1 * 19, b2x19 = b.L2 * 19, b3x19 = b.L3 * 19, b4x19 = b.L4 * 19;

        // Position 4 first: what it carries beyond 2^255 starts position 0.
        ulong l4 = 0, high = 0, spill = 0;
        Accumulate(a.L0, b.L4, ref l4, ref high, ref spill);
        Accumulate(a.L1, b.L3, ref l4, ref high, ref spill);
        Accumulate(a.L2, b.L2, ref l4, ref high, ref spill);
        Accumulate(a.L3, b.L1, ref l4, ref high, ref spill);
        Accumulate(a.L4, b.L0, ref l4, ref high, ref spill);
        ulong t = Above(high, spill) * 19;
        high = spill = 0;

        Accumulate(a.L0, b.L0, ref t, ref high, ref spill);
        Accumulate(a.L1, b4x19, ref t, ref high, ref spill);
        Accumulate(a.L2, b3x19, ref t, ref high, ref spill);
        Accumulate(a.L3, b2x19, ref t, ref high, ref spill);
        Accumulate(a.L4, b1x19, ref t, ref high, ref spill);
        ulong r0 = NextLimb(ref t, ref high, ref spill);

        Accumulate(a.L0, b.L1, ref t, ref high, ref spill);
        Accumulate(a.L1, b.L0, ref t, ref high, ref spill);
        Accumulate(a.L2, b4x19, ref t, ref high, ref spill);
        Accumulate(a.L3, b3x19, ref t, ref high, ref spill);
        Accumulate(a.L4, b2x19, ref t, ref high, ref spill);
        ulong r1 = NextLimb(ref t, ref high, ref spill);

        Accumulate(a.L0, b.L2, ref t, ref high, ref spill);
        Accumulate(a.L1, b.L1, ref t, ref high, ref spill);
        Accumulate(a.L2, b.L0, ref t, ref high, ref spill);
        Accumulate(a.L3, b4x19, ref t, ref high, ref spill);
        Accumulate(a.L4, b3x19, ref t, ref high, ref spill);
        ulong r2 = NextLimb(ref t, ref high, ref spill);

        Accumulate(a.L0, b.L3, ref t, ref high, ref spill);
        Accumulate(a.L1, b.L2, ref t, ref high, ref spill);
        Accumulate(a.L2, b.L1, ref t, ref high, ref spill);
        Accumulate(a.L3, b.L0, ref t, ref high, ref spill);
        Accumulate(a.L4, b4x19, ref t, ref high, ref spill);
        ulong r3 = NextLimb(ref t, ref high, ref spill);

        return Finish(r0, r1, r2, r3, t + l4);
    }

    /// <summary>a², with the symmetric products taken once: 15 wide multiplications where Multiply needs 25.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static FieldElement Square(in FieldElement a)
    {
        ulong a0 = a.L0, a1 = a.L1, a2 = a.L2, a3 = a.L3, a4 = a.L4;
        ulong a0x2 = a0 * 2, a1x2 = a1 * 2, a2x2 = a2 * 2;
        ulong a3x19 = a3 * 19, a4x19 = a4 * 19, a4x38 = a4 * 38;

        // Position k gathers a_i a_j with i + j = k, and 19 a_i a_j with i + j = k + 5 (2^255 = 19 mod p); position 4
        // first, as in Multiply.
        ulong l4 = 0, high = 0, spill = 0;
        Accumulate(a0x2, a4, ref l4, ref high, ref spill);
        Accumulate(a1x2, a3, ref l4, ref high, ref spill);
        Accumulate(a2, a2, ref l4, ref high, ref spill);
        ulong t = Above(high, spill) * 19;
        high = spill = 0;

        Accumulate(a0, a0, ref t, ref high, ref spill);
        Accumulate(a1x2, a4x19, ref t, ref high, ref spill);
        Accumulate(a2x2, a3x19, ref t, ref high, ref spill);
        ulong r0 = NextLimb(ref t, ref high, ref spill);

        Accumulate(a0x2, a1, ref t, ref high, ref spill);
        Accumulate(a2x2, a4x19, ref t, ref high, ref spill);
        Accumulate(a3, a3x19, ref t, ref high, ref spill);
        ulong r1 = NextLimb(ref t, ref high, ref spill);

        Accumulate(a0x2, a2, ref t, ref high, ref spill);
        Accumulate(a1, a1, ref t, ref high, ref spill);
        Accumulate(a3, a4x38, ref t, ref high, ref spill);
        ulong r2 = NextLimb(ref t, ref high, ref spill);

        Accumulate(a0x2, a3, ref t, ref high, ref spill);
        Accumulate(a1x2, a2, ref t, ref high, ref spill);
        Accumulate(a4, a4x19, ref t, ref high, ref spill);
        ulong r3 = NextLimb(ref t, ref high, ref spill);

        return Finish(r0, r1, r2, r3, t + l4);
    }

    /// <summary>a^(2^<paramref name="count"/>): <paramref name="count"/> squarings in a row.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static FieldElement SquareTimes(in FieldElement a, int count)
    {
        FieldElement r = Square(a);
        for (int i = 1; i < count; i++)
        {
            r = Square(r);
        }

        return r;
    }

    /// <summary>a × n for a small constant n (below 2^20).</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static FieldElement MultiplySmall(in FieldElement a, uint n)
    {
        ulong l4 = 0, high = 0, spill = 0;
        Accumulate(a.L4, n, ref l4, ref high, ref spill);
        ulong t = Above(high, spill) * 19;
        high = spill = 0;
        Accumulate(a.L0, n, ref t, ref high, ref spill);
        ulong r0 = NextLimb(ref t, ref high, ref spill);
        Accumulate(a.L1, n, ref t, ref high, ref spill);
        ulong r1 = NextLimb(ref t, ref high, ref spill);
        Accumulate(a.L2, n, ref t, ref high, ref spill);
        ulong r2 = NextLimb(ref t, ref high, ref spill);
        Accumulate(a.L3, n, ref t, ref high, ref spill);
        ulong r3 = NextLimb(ref t, ref high, ref spill);
        return Finish(r0, r1, r2, r3, t + l4);
    }

    /// <summary>a^(p-2) = a^-1 (0 for 0), by Fermat's little theorem (RFC 7748 §5).</summary>
    /// <remarks>
    /// p - 2 = 2^255 - 21 is public, so the fixed chain leaks nothing. The chain builds
    /// a^(2^k - 1) for k = 5, 10, 20, 40, 50, 100, 200, 250 (each from two shorter ones), then
    /// 2^255 - 21 = (2^250 - 1) × 2^5 + 11: 254 squarings and 11 multiplications.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static FieldElement Invert(in FieldElement a)
    {
        FieldElement a2 = Square(a);                                    // a^2
        FieldElement a9 = Multiply(SquareTimes(a2, 2), a);              // a^9
        FieldElement a11 = Multiply(a9, a2);                            // a^11
        FieldElement e5 = Multiply(Square(a11), a9);                    // a^(2^5 - 1) = a^31
        FieldElement e10 = Multiply(SquareTimes(e5, 5), e5);            // a^(2^10 - 1)
        FieldElement e20 = Multiply(SquareTimes(e10, 10), e10);         // a^(2^20 - 1)
        FieldElement e40 = Multiply(SquareTimes(e20, 20), e20);         // a^(2^40 - 1)
        FieldElement e50 = Multiply(SquareTimes(e40, 10), e10);         // a^(2^50 - 1)
        FieldElement e100 = Multiply(SquareTimes(e50, 50), e50);        // a^(2^100 - 1)
        FieldElement e200 = Multiply(SquareTimes(e100, 100), e100);     // a^(2^200 - 1)
        FieldElement e250 = Multiply(SquareTimes(e200, 50), e50);       // a^(2^250 - 1)
        return Multiply(SquareTimes(e250, 5), a11);                     // a^(2^255 - 32 + 11)
    }

    /// <summary>Sets a to b when <paramref name="move"/> is 1, leaves it when it is 0, without branching.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void ConditionalMove(ref FieldElement a, in FieldElement b, ulong move)
    {
        ulong mask = 0 - move;
        a.L0 ^= mask & (a.L0 ^ b.L0);
        a.L1 ^= mask & (a.L1 ^ b.L1);
        a.L2 ^= mask & (a.L2 ^ b.L2);
        a.L3 ^= mask & (a.L3 ^ b.L3);
        a.L4 ^= mask & (a.L4 ^ b.L4);
    }

    /// <summary>Swaps a and b when <paramref name="swap"/> is 1, leaves them when it is 0, without branching.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void ConditionalSwap(ref FieldElement a, ref FieldElement b, ulong swap)
    {
        ulong mask = 0 - swap;
        ulong t;
        t = mask & (a.L0 ^ b.L0); a.L0 ^= t; b.L0 ^= t;
        t = mask & (a.L1 ^ b.L1); a.L1 ^= t; b.L1 ^= t;
        t = mask & (a.L2 ^ b.L2); a.L2 ^= t; b.L2 ^= t;
        t = mask & (a.L3 ^ b.L3); a.L3 ^= t; b.L3 ^= t;
        t = mask & (a.L4 ^ b.L4); a.L4 ^= t; b.L4 ^= t;
    }

    /// <summary>
    /// Adds the product a × b to one position of a product in progress, as its low 51 bits (into
    /// <paramref name="low"/>) and the rest (into <paramref name="high"/>, bits 64 and up, and <paramref name="spill"/>,
    /// bits 51 to 63; <see cref="Above"/> joins them). Every sum stays below 2^64 without a carry to track.
    /// </summary>
    /// <remarks>
    /// With 128-bit sums (UInt128) the JIT kept each partial product in memory and tracked carries with flag
    /// materialisation; split this way the position sums are plain 64-bit additions. Bounds, for limbs below 2^54:
    /// a position's products sum to less than 77 × 2^108 (below 2^114.3: one plain product and four carrying 19, or in
    /// Square one plain and two carrying 38), so a position adds at most 5 × 2^51 to low, and high stays below 2^50.3
    /// and spill below 5 × 2^13.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Accumulate(ulong a, ulong b, ref ulong low, ref ulong high, ref ulong spill)
    {
        ulong product = a * b;
        high += Bmi2.X64.IsSupported ? Bmi2.X64.MultiplyNoFlags(a, b) : Math.BigMul(a, b, out _);
        low += product & Mask51;
        spill += product >> 51;
    }

    /// <summary>The part of a position's products at 2^51 and above, in units of 2^51 (below 2^63.3).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Above(ulong high, ulong spill) => (high << 13) + spill;

    /// <summary>
    /// Ends a position: returns its low 51 bits as a limb and leaves in <paramref name="low"/> what it carries into the
    /// next position (the rest of its low sum and its part above 2^51), with the next position's other sums cleared.
    /// </summary>
    /// <remarks>
    /// Position 4 is summed first and has no product carrying 19 (its products sum below 5 × 2^108), so its part
    /// above 2^51 is below 2^59.4, and 19 times that, which starts position 0, below 2^63.6: the largest sum, and the
    /// one that sets the 2^54 limit. Every later position starts below 2^13 + 2^63.3. Adding a position's low parts
    /// (below 5 × 2^51) keeps each sum within 64 bits.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong NextLimb(ref ulong low, ref ulong high, ref ulong spill)
    {
        ulong limb = low & Mask51;
        low = (low >> 51) + Above(high, spill);
        high = 0;
        spill = 0;
        return limb;
    }

    /// <summary>
    /// Ends a product: <paramref name="t4"/> is position 4 with what position 3 carried into it; what it carries
    /// beyond 2^255 comes back into limb 0 multiplied by 19, and limb 0 carries once more. The result's limbs are
    /// below 2^51 plus a small excess.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static FieldElement Finish(ulong r0, ulong r1, ulong r2, ulong r3, ulong t4)
    {
        r0 += (t4 >> 51) * 19;
        r1 += r0 >> 51;
        return new FieldElement { L0 = r0 & Mask51, L1 = r1, L2 = r2, L3 = r3, L4 = t4 & Mask51 };
    }

    /// <summary>Brings every limb back under 2^51, but <see cref="L1"/>, which may reach 2^51 exactly.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void Carry()
    {
        L1 += L0 >> 51; L0 &= Mask51;
        L2 += L1 >> 51; L1 &= Mask51;
        L3 += L2 >> 51; L2 &= Mask51;
        L4 += L3 >> 51; L3 &= Mask51;
        L0 += 19 * (L4 >> 51); L4 &= Mask51;
        L1 += L0 >> 51; L0 &= Mask51;
    }
}
