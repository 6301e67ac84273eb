using System.Buffers.Binary;
using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics.X86;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Security.Crypto;

/// <summary>
/// The Poly1305 one-time authenticator (RFC 8439 §2.5), incremental and allocation-free.
/// </summary>
/// <remarks>
/// The accumulator and r are held as three limbs of 44, 44 and 42 bits, so a block costs nine
/// 64×64→128-bit multiplications (<see cref="Math.BigMul(ulong, ulong, out ulong)"/>, one
/// instruction on x64 and arm64) where 26-bit limbs need twenty-five. The arithmetic is the same
/// whatever the key and message, and the final reduction modulo 2^130 - 5 selects with a mask
/// instead of a branch.
/// </remarks>
[StructLayout(LayoutKind.Auto)]
internal partial struct Poly1305
{
    /// <summary>The one-time key size: r (16) and s (16).</summary>
    public const int KeySize = 32;

    /// <summary>The tag size.</summary>
    public const int TagSize = 16;

    private const int BlockSize = 16;
    private const ulong Mask44 = (1UL << 44) - 1;
    private const ulong Mask42 = (1UL << 42) - 1;

    /// <summary>The 2^128 bit of a full block, in the top limb (bit 128 - 88 = 40).</summary>
    private const ulong FullBlockBit = 1UL << 40;

    /// <summary>r, clamped, in 44/44/42-bit limbs.</summary>
    private ulong _r0, _r1, _r2;

    /// <summary>s, the two 64-bit words added at the end.</summary>
    private ulong _s0, _s1;

    /// <summary>The accumulator in 44/44/42-bit limbs.</summary>
    private ulong _h0, _h1, _h2;

    /// <summary>A partial block waiting for more input.</summary>
    private Block16 _pending;

    /// <summary>How many octets of <see cref="_pending"/> are used.</summary>
    private int _pendingLength;

    /// <summary>Starts an authenticator with a 32-byte one-time key.</summary>
    public Poly1305(ReadOnlySpan<byte> key)
    {
        Debug.Assert(key.Length == KeySize, "A Poly1305 key is 32 octets.");

        // RFC 8439 §2.5: clamp r &= 0x0ffffffc0ffffffc0ffffffc0fffffff, split into 44/44/42 bits.
        ulong t0 = BinaryPrimitives.ReadUInt64LittleEndian(key);
        ulong t1 = BinaryPrimitives.ReadUInt64LittleEndian(key.Slice(8));
        _r0 = t0 & 0xffc0fffffffUL;
        _r1 = ((t0 >> 44) | (t1 << 20)) & 0xfffffc0ffffUL;
        _r2 = (t1 >> 24) & 0x00ffffffc0fUL;

        _s0 = BinaryPrimitives.ReadUInt64LittleEndian(key.Slice(16));
        _s1 = BinaryPrimitives.ReadUInt64LittleEndian(key.Slice(24));
    }

    /// <summary>Computes the tag of <paramref name="message"/> in one call.</summary>
    public static void Compute(ReadOnlySpan<byte> key, ReadOnlySpan<byte> message, Span<byte> tag)
    {
        var mac = new Poly1305(key);
        mac.Update(message);
        mac.Finish(tag);
    }

    /// <summary>Checks <paramref name="tag"/> against the tag of <paramref name="message"/> in constant time.</summary>
    /// <remarks>
    /// The expected tag stays in two registers and is compared as two 64-bit words, XORed and
    /// ORed together with one test at the end (as libsodium's crypto_verify_16): no early exit,
    /// and no buffer holding the right tag for a forged message is left to wipe.
    /// </remarks>
    public static bool Verify(ReadOnlySpan<byte> key, ReadOnlySpan<byte> message, ReadOnlySpan<byte> tag)
    {
        Debug.Assert(tag.Length >= TagSize, "A Poly1305 tag is 16 octets.");
        var mac = new Poly1305(key);
        mac.Update(message);
        mac.Finish(out ulong expected0, out ulong expected1);
        ulong difference = (expected0 ^ BinaryPrimitives.ReadUInt64LittleEndian(tag))
            | (expected1 ^ BinaryPrimitives.ReadUInt64LittleEndian(tag.Slice(8)));
        return difference == 0;
    }

    /// <summary>Adds message octets.</summary>
    public void Update(ReadOnlySpan<byte> data)
    {
        Span<byte> pending = _pending;
        if (_pendingLength > 0)
        {
            int take = Math.Min(BlockSize - _pendingLength, data.Length);
            data.Slice(0, take).CopyTo(pending.Slice(_pendingLength));
            _pendingLength += take;
            data = data.Slice(take);
            if (_pendingLength < BlockSize)
            {
                return;
            }

            ProcessBlock(pending, FullBlockBit);
            _pendingLength = 0;
        }

        if (data.Length >= BlockSize)
        {
            int whole = data.Length & ~(BlockSize - 1);
            ProcessBlocks(data.Slice(0, whole));
            data = data.Slice(whole);
        }

        if (!data.IsEmpty)
        {
            data.CopyTo(pending);
            _pendingLength = data.Length;
        }
    }

    /// <summary>Writes the 16-byte tag and wipes the state.</summary>
    public void Finish(Span<byte> tag)
    {
        Debug.Assert(tag.Length >= TagSize, "A Poly1305 tag is 16 octets.");
        Finish(out ulong tag0, out ulong tag1);
        BinaryPrimitives.WriteUInt64LittleEndian(tag, tag0);
        BinaryPrimitives.WriteUInt64LittleEndian(tag.Slice(8), tag1);
    }

    /// <summary>The tag as its two little-endian 64-bit words; wipes the state.</summary>
    private void Finish(out ulong tag0, out ulong tag1)
    {
        if (_pendingLength > 0)
        {
            // RFC 8439 §2.5.1: a short last block gets a 0x01 octet after it, then zeros, and no 2^128 bit.
            Span<byte> pending = _pending;
            pending[_pendingLength] = 1;
            pending.Slice(_pendingLength + 1).Clear();
            ProcessBlock(pending, 0);
        }

        // Fully carry h (twice round: the first pass can leave a carry into h1 and h2).
        ulong h0 = _h0, h1 = _h1, h2 = _h2;
        ulong c;
        c = h1 >> 44; h1 &= Mask44; h2 += c;
        c = h2 >> 42; h2 &= Mask42; h0 += c * 5;
        c = h0 >> 44; h0 &= Mask44; h1 += c;
        c = h1 >> 44; h1 &= Mask44; h2 += c;
        c = h2 >> 42; h2 &= Mask42; h0 += c * 5;
        c = h0 >> 44; h0 &= Mask44; h1 += c;

        // g = h + 5 - 2^130; if that does not borrow, h >= p and g is the reduced value.
        ulong g0 = h0 + 5; c = g0 >> 44; g0 &= Mask44;
        ulong g1 = h1 + c; c = g1 >> 44; g1 &= Mask44;
        ulong g2 = h2 + c - (1UL << 42);

        // The top bit of g2 is set when it borrowed: keep h then, else take g. No branch.
        ulong useG = (g2 >> 63) - 1;
        ulong useH = ~useG;
        h0 = (h0 & useH) | (g0 & useG);
        h1 = (h1 & useH) | (g1 & useG);
        h2 = (h2 & useH) | (g2 & useG);

        // h + s modulo 2^128, with s split the same way, then back to two 64-bit words.
        ulong s0 = _s0, s1 = _s1;
        h0 += s0 & Mask44; c = h0 >> 44; h0 &= Mask44;
        h1 += (((s0 >> 44) | (s1 << 20)) & Mask44) + c; c = h1 >> 44; h1 &= Mask44;
        h2 += (s1 >> 24) + c; h2 &= Mask42;

        tag0 = h0 | (h1 << 44);
        tag1 = (h1 >> 20) | (h2 << 24);
        this = default;
    }

    /// <summary>Whole 16-octet blocks, each with its 2^128 bit.</summary>
    /// <remarks>
    /// Never inlined, so the loop is compiled the same at every call site: inlined into a caller
    /// with tiered PGO it once ran several times slower (measured with <c>Managed.Zmq.Perf crypto</c>).
    /// </remarks>
    [MethodImpl(MethodImplOptions.NoInlining | MethodImplOptions.AggressiveOptimization)]
    private void ProcessBlocks(ReadOnlySpan<byte> blocks)
    {
        if (Avx2.IsSupported && blocks.Length >= VectorThreshold)
        {
            int vectorBytes = blocks.Length & ~(VectorStep - 1);
            ProcessBlocksAvx2(blocks.Slice(0, vectorBytes));
            blocks = blocks.Slice(vectorBytes);
        }

        ulong h0 = _h0, h1 = _h1, h2 = _h2;
        ulong r0 = _r0, r1 = _r1, r2 = _r2;

        // 2^130 = 5 (mod p): limb products that reach 2^132 come back as 5 × 4 = 20 × the product.
        ulong s1 = r1 * 20, s2 = r2 * 20;
        for (int i = 0; i < blocks.Length; i += BlockSize)
        {
            Absorb(blocks.Slice(i, BlockSize), FullBlockBit, ref h0, ref h1, ref h2);
            Multiply(ref h0, ref h1, ref h2, r0, r1, r2, s1, s2);
        }

        _h0 = h0;
        _h1 = h1;
        _h2 = h2;
    }

    /// <summary>h = (h + block + hibit × 2^128) × r mod 2^130 - 5 (RFC 8439 §2.5.1), for the last, padded block.</summary>
    private void ProcessBlock(ReadOnlySpan<byte> block, ulong hibit)
    {
        ulong h0 = _h0, h1 = _h1, h2 = _h2;
        Absorb(block, hibit, ref h0, ref h1, ref h2);
        Multiply(ref h0, ref h1, ref h2, _r0, _r1, _r2, _r1 * 20, _r2 * 20);
        _h0 = h0;
        _h1 = h1;
        _h2 = h2;
    }

    /// <summary>h += the 16 octets of <paramref name="block"/> read as a little-endian number, plus <paramref name="hibit"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Absorb(ReadOnlySpan<byte> block, ulong hibit, ref ulong h0, ref ulong h1, ref ulong h2)
    {
        ulong t0 = BinaryPrimitives.ReadUInt64LittleEndian(block);
        ulong t1 = BinaryPrimitives.ReadUInt64LittleEndian(block.Slice(8));
        h0 += t0 & Mask44;
        h1 += ((t0 >> 44) | (t1 << 20)) & Mask44;
        h2 += ((t1 >> 24) & Mask42) | hibit;
    }

    /// <summary>h = h × r mod 2^130 - 5, partly reduced (limbs a little above 44/42 bits).</summary>
    /// <remarks>
    /// The 128-bit sums are kept as two ulongs rather than UInt128, whose constructor and addition
    /// the profile showed as calls of their own on this path.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Multiply(ref ulong h0, ref ulong h1, ref ulong h2, ulong r0, ulong r1, ulong r2, ulong s1, ulong s2)
    {
        ulong d0 = h0 * r0, d0High = MultiplyHigh(h0, r0);
        MultiplyAdd(ref d0High, ref d0, h1, s2);
        MultiplyAdd(ref d0High, ref d0, h2, s1);
        ulong d1 = h0 * r1, d1High = MultiplyHigh(h0, r1);
        MultiplyAdd(ref d1High, ref d1, h1, r0);
        MultiplyAdd(ref d1High, ref d1, h2, s2);
        ulong d2 = h0 * r2, d2High = MultiplyHigh(h0, r2);
        MultiplyAdd(ref d2High, ref d2, h1, r1);
        MultiplyAdd(ref d2High, ref d2, h2, r0);

        // Carry 44, 44, 42 bits along; the sums are below 2^100, so a carry fits in 64 bits.
        ulong c = (d0 >> 44) | (d0High << 20);
        h0 = d0 & Mask44;
        d1High += AddWithCarry(ref d1, c);
        c = (d1 >> 44) | (d1High << 20);
        h1 = d1 & Mask44;
        d2High += AddWithCarry(ref d2, c);
        c = (d2 >> 42) | (d2High << 22);
        h2 = d2 & Mask42;
        h0 += c * 5;
        c = h0 >> 44;
        h0 &= Mask44;
        h1 += c;
    }

    /// <summary>(high, low) += a × b.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void MultiplyAdd(ref ulong high, ref ulong low, ulong a, ulong b)
    {
        ulong carry = AddWithCarry(ref low, a * b);
        high += MultiplyHigh(a, b) + carry;
    }

    /// <summary>
    /// x += y, returning the carry out (0 or 1) from bit arithmetic rather than a comparison, so
    /// that no compiler can turn it into a branch on secret data.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong AddWithCarry(ref ulong x, ulong y)
    {
        ulong sum = x + y;
        ulong carry = ((x & y) | ((x | y) & ~sum)) >> 63;
        x = sum;
        return carry;
    }

    /// <summary>
    /// The high 64 bits of a × b. With BMI2, MULX's high-only form: Math.BigMul's <c>out</c> low
    /// half went through a stack slot (a store and a reload on the dependency chain), so the low
    /// half is taken with a plain multiplication instead.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong MultiplyHigh(ulong a, ulong b) =>
        Bmi2.X64.IsSupported ? Bmi2.X64.MultiplyNoFlags(a, b) : Math.BigMul(a, b, out _);

    /// <summary>16 inline octets for the pending partial block.</summary>
    [InlineArray(16)]
    private struct Block16
    {
        private byte _element0;
    }
}
