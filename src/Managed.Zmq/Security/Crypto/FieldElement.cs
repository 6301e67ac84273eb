using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Security.Crypto;

/// <summary>
/// An element of GF(2^255 - 19) (RFC 7748 §4.1) as five 51-bit limbs, value = Σ limb[i] × 2^(51 i).
/// </summary>
/// <remarks>
/// Every operation runs the same instructions whatever the values: carries are shifts and masks,
/// the conditional swap is a mask, and the final reduction selects with a mask. Limbs stay below
/// 2^52 between operations, which keeps each 128-bit product sum well clear of overflow.
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

    /// <summary>a - b, computed as a + 4p - b so that no limb goes negative.</summary>
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

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static FieldElement Multiply(in FieldElement a, in FieldElement b)
    {
        ulong a0 = a.L0, a1 = a.L1, a2 = a.L2, a3 = a.L3, a4 = a.L4;
        ulong b0 = b.L0, b1 = b.L1, b2 = b.L2, b3 = b.L3, b4 = b.L4;

        // 2^255 = 19 (mod p): products that land at 2^255 and above come back multiplied by 19.
        ulong b1x19 = b1 * 19, b2x19 = b2 * 19, b3x19 = b3 * 19, b4x19 = b4 * 19;

        UInt128 r0 = Mul(a0, b0) + Mul(a1, b4x19) + Mul(a2, b3x19) + Mul(a3, b2x19) + Mul(a4, b1x19);
        UInt128 r1 = Mul(a0, b1) + Mul(a1, b0) + Mul(a2, b4x19) + Mul(a3, b3x19) + Mul(a4, b2x19);
        UInt128 r2 = Mul(a0, b2) + Mul(a1, b1) + Mul(a2, b0) + Mul(a3, b4x19) + Mul(a4, b3x19);
        UInt128 r3 = Mul(a0, b3) + Mul(a1, b2) + Mul(a2, b1) + Mul(a3, b0) + Mul(a4, b4x19);
        UInt128 r4 = Mul(a0, b4) + Mul(a1, b3) + Mul(a2, b2) + Mul(a3, b1) + Mul(a4, b0);
        return Reduce(r0, r1, r2, r3, r4);
    }

    /// <summary>a², with the symmetric products taken once: 15 wide multiplications where Multiply needs 25.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static FieldElement Square(in FieldElement a)
    {
        ulong a0 = a.L0, a1 = a.L1, a2 = a.L2, a3 = a.L3, a4 = a.L4;
        ulong a0x2 = a0 * 2, a1x2 = a1 * 2, a2x2 = a2 * 2;
        ulong a3x19 = a3 * 19, a4x19 = a4 * 19, a4x38 = a4 * 38;

        // r_k gathers a_i a_j with i + j = k, and 19 a_i a_j with i + j = k + 5 (2^255 = 19 mod p).
        UInt128 r0 = Mul(a0, a0) + Mul(a1x2, a4x19) + Mul(a2x2, a3x19);
        UInt128 r1 = Mul(a0x2, a1) + Mul(a2x2, a4x19) + Mul(a3, a3x19);
        UInt128 r2 = Mul(a0x2, a2) + Mul(a1, a1) + Mul(a3, a4x38);
        UInt128 r3 = Mul(a0x2, a3) + Mul(a1x2, a2) + Mul(a4, a4x19);
        UInt128 r4 = Mul(a0x2, a4) + Mul(a1x2, a3) + Mul(a2, a2);
        return Reduce(r0, r1, r2, r3, r4);
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
    public static FieldElement MultiplySmall(in FieldElement a, uint n) =>
        Reduce(Mul(a.L0, n), Mul(a.L1, n), Mul(a.L2, n), Mul(a.L3, n), Mul(a.L4, n));

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

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static UInt128 Mul(ulong a, ulong b)
    {
        ulong high = Math.BigMul(a, b, out ulong low);
        return new UInt128(high, low);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static FieldElement Reduce(UInt128 r0, UInt128 r1, UInt128 r2, UInt128 r3, UInt128 r4)
    {
        r1 += r0 >> 51;
        r2 += r1 >> 51;
        r3 += r2 >> 51;
        r4 += r3 >> 51;
        ulong carry = (ulong)(r4 >> 51);
        var h = new FieldElement
        {
            L0 = (ulong)r0 & Mask51,
            L1 = (ulong)r1 & Mask51,
            L2 = (ulong)r2 & Mask51,
            L3 = (ulong)r3 & Mask51,
            L4 = (ulong)r4 & Mask51,
        };

        // carry < 2^77 / 2^51 fits easily; 19 × carry may exceed 51 bits, so carry once more.
        h.L0 += carry * 19;
        h.L1 += h.L0 >> 51;
        h.L0 &= Mask51;
        return h;
    }

    /// <summary>Brings every limb back under 2^51 (plus a tiny excess in the lowest).</summary>
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
