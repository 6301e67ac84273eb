using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Security.Crypto;

/// <summary>
/// Poly1305 four blocks at a time with AVX2: each 64-bit lane carries one accumulator in five
/// 26-bit limbs, and VPMULUDQ multiplies four 26×26-bit limb pairs at once.
/// </summary>
/// <remarks>
/// <para>Sequentially h = Σ m_j r^(N-j) over N blocks. With four accumulators A_l, lane l takes
/// blocks 4i + l and multiplies by r⁴ after each of them; the last group multiplies lane l by
/// r^(4-l) instead, and the lanes' sum is the sequential h. The running h from earlier blocks
/// enters lane 0. Limbs stay below 2^27 between groups, so every product sum fits in 64 bits and
/// every multiplier stays below 2^32, as VPMULUDQ needs.</para>
/// <para>The arithmetic is the same whatever the key and message: no branch or index depends on
/// them. The powers of r live in vector locals and are not wiped: r is a one-time key, spent with
/// its nonce, and stack copies of vector locals cannot be reliably wiped from C#.</para>
/// </remarks>
internal partial struct Poly1305
{
    /// <summary>Bytes one vector step absorbs: four blocks.</summary>
    private const int VectorStep = 4 * BlockSize;

    /// <summary>
    /// Below this the powers of r and the lane sum cost more than the vector steps save (a fixed
    /// set-up against a small saving per block).
    /// </summary>
    private const int VectorThreshold = 16 * BlockSize;

    private const ulong Mask26 = (1UL << 26) - 1;

    /// <summary>Absorbs <paramref name="blocks"/> (a multiple of 64 octets) four blocks at a time.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private void ProcessBlocksAvx2(ReadOnlySpan<byte> blocks)
    {
        // r², r³ and r⁴ with the scalar arithmetic, then all four powers in 26-bit limbs.
        ulong r0 = _r0, r1 = _r1, r2 = _r2;
        ulong s1 = r1 * 20, s2 = r2 * 20;
        ulong p20 = r0, p21 = r1, p22 = r2;
        Multiply(ref p20, ref p21, ref p22, r0, r1, r2, s1, s2);
        ulong p30 = p20, p31 = p21, p32 = p22;
        Multiply(ref p30, ref p31, ref p32, r0, r1, r2, s1, s2);
        ulong p40 = p30, p41 = p31, p42 = p32;
        Multiply(ref p40, ref p41, ref p42, r0, r1, r2, s1, s2);

        Limbs26 power1 = ToLimbs26(r0, r1, r2);
        Limbs26 power2 = ToLimbs26(p20, p21, p22);
        Limbs26 power3 = ToLimbs26(p30, p31, p32);
        Limbs26 power4 = ToLimbs26(p40, p41, p42);

        // Every step but the last multiplies each lane by r⁴. The loads below put blocks 0, 2, 1, 3
        // of a group in lanes 0-3, so the last step multiplies by r⁴, r², r³, r¹.
        var step = new LanePowers(
            Vector256.Create(power4.L0), Vector256.Create(power4.L1), Vector256.Create(power4.L2), Vector256.Create(power4.L3), Vector256.Create(power4.L4));
        var last = new LanePowers(
            Vector256.Create(power4.L0, power2.L0, power3.L0, power1.L0),
            Vector256.Create(power4.L1, power2.L1, power3.L1, power1.L1),
            Vector256.Create(power4.L2, power2.L2, power3.L2, power1.L2),
            Vector256.Create(power4.L3, power2.L3, power3.L3, power1.L3),
            Vector256.Create(power4.L4, power2.L4, power3.L4, power1.L4));

        Limbs26 h = ToLimbs26(_h0, _h1, _h2);
        Vector256<ulong> a0 = Vector256.Create(h.L0, 0, 0, 0);
        Vector256<ulong> a1 = Vector256.Create(h.L1, 0, 0, 0);
        Vector256<ulong> a2 = Vector256.Create(h.L2, 0, 0, 0);
        Vector256<ulong> a3 = Vector256.Create(h.L3, 0, 0, 0);
        Vector256<ulong> a4 = Vector256.Create(h.L4, 0, 0, 0);

        ref byte source = ref MemoryMarshal.GetReference(blocks);
        int lastOffset = blocks.Length - VectorStep;
        for (int offset = 0; offset < lastOffset; offset += VectorStep)
        {
            AbsorbFour(ref source, offset, ref a0, ref a1, ref a2, ref a3, ref a4);
            MultiplyLanes(ref a0, ref a1, ref a2, ref a3, ref a4, step);
        }

        AbsorbFour(ref source, lastOffset, ref a0, ref a1, ref a2, ref a3, ref a4);
        MultiplyLanes(ref a0, ref a1, ref a2, ref a3, ref a4, last);

        // h = the sum of the lanes, carried to 26-bit limbs, then repacked as 44/44/42 bits.
        ulong l0 = Sum(a0), l1 = Sum(a1), l2 = Sum(a2), l3 = Sum(a3), l4 = Sum(a4);
        ulong c;
        c = l0 >> 26; l0 &= Mask26; l1 += c;
        c = l1 >> 26; l1 &= Mask26; l2 += c;
        c = l2 >> 26; l2 &= Mask26; l3 += c;
        c = l3 >> 26; l3 &= Mask26; l4 += c;
        c = l4 >> 26; l4 &= Mask26; l0 += c * 5;
        c = l0 >> 26; l0 &= Mask26; l1 += c;

        ulong v0 = l0 + (l1 << 26);
        ulong v1 = (v0 >> 44) + (l2 << 8) + (l3 << 34);
        _h0 = v0 & Mask44;
        _h1 = v1 & Mask44;
        _h2 = (v1 >> 44) + (l4 << 16);
    }

    /// <summary>Adds blocks 0, 2, 1, 3 of the 64 octets at <paramref name="offset"/> to lanes 0-3, with their 2^128 bits.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void AbsorbFour(ref byte source, int offset, ref Vector256<ulong> a0, ref Vector256<ulong> a1, ref Vector256<ulong> a2, ref Vector256<ulong> a3, ref Vector256<ulong> a4)
    {
        // (lo0 hi0 lo1 hi1) and (lo2 hi2 lo3 hi3); the unpacks work per 128-bit half, giving the
        // low words as (lo0 lo2 lo1 lo3) and the high words as (hi0 hi2 hi1 hi3).
        Vector256<ulong> first = Vector256.LoadUnsafe(ref source, (nuint)offset).AsUInt64();
        Vector256<ulong> second = Vector256.LoadUnsafe(ref source, (nuint)(offset + 32)).AsUInt64();
        Vector256<ulong> low = Avx2.UnpackLow(first, second);
        Vector256<ulong> high = Avx2.UnpackHigh(first, second);
        Vector256<ulong> mask = Vector256.Create(Mask26);

        a0 += low & mask;
        a1 += (low >>> 26) & mask;
        a2 += ((low >>> 52) | (high << 12)) & mask;
        a3 += (high >>> 14) & mask;
        a4 += (high >>> 40) | Vector256.Create(1UL << 24);
    }

    /// <summary>a = a × power per lane, mod 2^130 - 5, limbs carried back below 2^26 (plus a little in a1).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void MultiplyLanes(ref Vector256<ulong> a0, ref Vector256<ulong> a1, ref Vector256<ulong> a2, ref Vector256<ulong> a3, ref Vector256<ulong> a4, in LanePowers p)
    {
        Vector256<ulong> d0 = Mul(a0, p.R0) + Mul(a1, p.S4) + Mul(a2, p.S3) + Mul(a3, p.S2) + Mul(a4, p.S1);
        Vector256<ulong> d1 = Mul(a0, p.R1) + Mul(a1, p.R0) + Mul(a2, p.S4) + Mul(a3, p.S3) + Mul(a4, p.S2);
        Vector256<ulong> d2 = Mul(a0, p.R2) + Mul(a1, p.R1) + Mul(a2, p.R0) + Mul(a3, p.S4) + Mul(a4, p.S3);
        Vector256<ulong> d3 = Mul(a0, p.R3) + Mul(a1, p.R2) + Mul(a2, p.R1) + Mul(a3, p.R0) + Mul(a4, p.S4);
        Vector256<ulong> d4 = Mul(a0, p.R4) + Mul(a1, p.R3) + Mul(a2, p.R2) + Mul(a3, p.R1) + Mul(a4, p.R0);

        Vector256<ulong> mask = Vector256.Create(Mask26);
        d1 += d0 >>> 26;
        d2 += d1 >>> 26;
        d3 += d2 >>> 26;
        d4 += d3 >>> 26;
        Vector256<ulong> c = d4 >>> 26;
        a0 = (d0 & mask) + (c << 2) + c;
        a1 = (d1 & mask) + (a0 >>> 26);
        a0 &= mask;
        a2 = d2 & mask;
        a3 = d3 & mask;
        a4 = d4 & mask;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector256<ulong> Mul(Vector256<ulong> a, Vector256<ulong> b) => Avx2.Multiply(a.AsUInt32(), b.AsUInt32());

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Sum(Vector256<ulong> lanes) => lanes.GetElement(0) + lanes.GetElement(1) + lanes.GetElement(2) + lanes.GetElement(3);

    /// <summary>A value in 44/44/42-bit limbs as five 26-bit limbs (the top one may be a little larger).</summary>
    private static Limbs26 ToLimbs26(ulong h0, ulong h1, ulong h2)
    {
        ulong c = h0 >> 44; h0 &= Mask44; h1 += c;
        c = h1 >> 44; h1 &= Mask44; h2 += c;
        return new Limbs26(
            h0 & Mask26,
            ((h0 >> 26) | (h1 << 18)) & Mask26,
            (h1 >> 8) & Mask26,
            ((h1 >> 34) | (h2 << 10)) & Mask26,
            h2 >> 16);
    }

    private readonly record struct Limbs26(ulong L0, ulong L1, ulong L2, ulong L3, ulong L4);

    /// <summary>The multiplier of one vector step per lane, with 5 × its limbs for the products past 2^130.</summary>
    private readonly struct LanePowers
    {
        public readonly Vector256<ulong> R0, R1, R2, R3, R4, S1, S2, S3, S4;

        public LanePowers(Vector256<ulong> r0, Vector256<ulong> r1, Vector256<ulong> r2, Vector256<ulong> r3, Vector256<ulong> r4)
        {
            R0 = r0;
            R1 = r1;
            R2 = r2;
            R3 = r3;
            R4 = r4;
            S1 = (r1 << 2) + r1;
            S2 = (r2 << 2) + r2;
            S3 = (r3 << 2) + r3;
            S4 = (r4 << 2) + r4;
        }
    }
}
