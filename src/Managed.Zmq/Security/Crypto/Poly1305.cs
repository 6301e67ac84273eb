using System.Buffers.Binary;
using System.Diagnostics;
using System.Runtime.InteropServices;

namespace Managed.Zmq.Security.Crypto;

/// <summary>
/// The Poly1305 one-time authenticator (RFC 8439 §2.5; D. J. Bernstein, "The Poly1305-AES
/// message-authentication code"), incremental and allocation-free.
/// </summary>
/// <remarks>
/// The accumulator and r are held as five 26-bit limbs so that every product fits in 64 bits;
/// the arithmetic is the same whatever the key and message, and the final reduction modulo
/// 2^130 - 5 selects with a mask instead of a branch.
/// </remarks>
[StructLayout(LayoutKind.Auto)]
internal struct Poly1305
{
    /// <summary>The one-time key size: r (16) and s (16).</summary>
    public const int KeySize = 32;

    /// <summary>The tag size.</summary>
    public const int TagSize = 16;

    private const int BlockSize = 16;
    private const uint Mask26 = 0x3ffffff;

    /// <summary>r, clamped, in 26-bit limbs.</summary>
    private uint _r0, _r1, _r2, _r3, _r4;

    /// <summary>s, added at the end.</summary>
    private uint _s0, _s1, _s2, _s3;

    /// <summary>The accumulator in 26-bit limbs.</summary>
    private uint _h0, _h1, _h2, _h3, _h4;

    /// <summary>A partial block waiting for more input.</summary>
    private Block16 _pending;

    /// <summary>How many octets of <see cref="_pending"/> are used.</summary>
    private int _pendingLength;

    /// <summary>Starts an authenticator with a 32-byte one-time key.</summary>
    public Poly1305(ReadOnlySpan<byte> key)
    {
        Debug.Assert(key.Length == KeySize, "A Poly1305 key is 32 octets.");

        // RFC 8439 §2.5: clamp r &= 0x0ffffffc0ffffffc0ffffffc0fffffff.
        uint t0 = BinaryPrimitives.ReadUInt32LittleEndian(key);
        uint t1 = BinaryPrimitives.ReadUInt32LittleEndian(key.Slice(4));
        uint t2 = BinaryPrimitives.ReadUInt32LittleEndian(key.Slice(8));
        uint t3 = BinaryPrimitives.ReadUInt32LittleEndian(key.Slice(12));
        _r0 = t0 & 0x3ffffff;
        _r1 = ((t0 >> 26) | (t1 << 6)) & 0x3ffff03;
        _r2 = ((t1 >> 20) | (t2 << 12)) & 0x3ffc0ff;
        _r3 = ((t2 >> 14) | (t3 << 18)) & 0x3f03fff;
        _r4 = (t3 >> 8) & 0x00fffff;

        _s0 = BinaryPrimitives.ReadUInt32LittleEndian(key.Slice(16));
        _s1 = BinaryPrimitives.ReadUInt32LittleEndian(key.Slice(20));
        _s2 = BinaryPrimitives.ReadUInt32LittleEndian(key.Slice(24));
        _s3 = BinaryPrimitives.ReadUInt32LittleEndian(key.Slice(28));
    }

    /// <summary>Computes the tag of <paramref name="message"/> in one call.</summary>
    public static void Compute(ReadOnlySpan<byte> key, ReadOnlySpan<byte> message, Span<byte> tag)
    {
        var mac = new Poly1305(key);
        mac.Update(message);
        mac.Finish(tag);
    }

    /// <summary>Checks <paramref name="tag"/> against the tag of <paramref name="message"/> in constant time.</summary>
    public static bool Verify(ReadOnlySpan<byte> key, ReadOnlySpan<byte> message, ReadOnlySpan<byte> tag)
    {
        Span<byte> expected = stackalloc byte[TagSize];
        Compute(key, message, expected);
        bool equal = System.Security.Cryptography.CryptographicOperations.FixedTimeEquals(expected, tag);
        System.Security.Cryptography.CryptographicOperations.ZeroMemory(expected);
        return equal;
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

            ProcessBlock(pending, 1u << 24);
            _pendingLength = 0;
        }

        while (data.Length >= BlockSize)
        {
            ProcessBlock(data, 1u << 24);
            data = data.Slice(BlockSize);
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
        if (_pendingLength > 0)
        {
            // RFC 8439 §2.5.1: a short last block gets a 0x01 octet after it, then zeros, and no 2^128 bit.
            Span<byte> pending = _pending;
            pending[_pendingLength] = 1;
            pending.Slice(_pendingLength + 1).Clear();
            ProcessBlock(pending, 0);
        }

        // Fully carry h.
        uint h0 = _h0, h1 = _h1, h2 = _h2, h3 = _h3, h4 = _h4;
        uint c;
        c = h1 >> 26; h1 &= Mask26; h2 += c;
        c = h2 >> 26; h2 &= Mask26; h3 += c;
        c = h3 >> 26; h3 &= Mask26; h4 += c;
        c = h4 >> 26; h4 &= Mask26; h0 += c * 5;
        c = h0 >> 26; h0 &= Mask26; h1 += c;

        // g = h + 5 - 2^130; if that does not borrow, h >= p and g is the reduced value.
        uint g0 = h0 + 5; c = g0 >> 26; g0 &= Mask26;
        uint g1 = h1 + c; c = g1 >> 26; g1 &= Mask26;
        uint g2 = h2 + c; c = g2 >> 26; g2 &= Mask26;
        uint g3 = h3 + c; c = g3 >> 26; g3 &= Mask26;
        uint g4 = h4 + c - (1u << 26);

        // The top bit of g4 is set when it borrowed: keep h then, else take g. No branch.
        uint useH = (uint)((int)g4 >> 31);
        uint useG = ~useH;
        h0 = (h0 & useH) | (g0 & useG);
        h1 = (h1 & useH) | (g1 & useG);
        h2 = (h2 & useH) | (g2 & useG);
        h3 = (h3 & useH) | (g3 & useG);
        h4 = (h4 & useH) | (g4 & useG);

        // Back to four 32-bit words, then add s modulo 2^128.
        ulong w0 = (h0 | (h1 << 26)) & 0xffffffff;
        ulong w1 = ((h1 >> 6) | (h2 << 20)) & 0xffffffff;
        ulong w2 = ((h2 >> 12) | (h3 << 14)) & 0xffffffff;
        ulong w3 = ((h3 >> 18) | (h4 << 8)) & 0xffffffff;

        ulong f = w0 + _s0;
        BinaryPrimitives.WriteUInt32LittleEndian(tag, (uint)f);
        f = w1 + _s1 + (f >> 32);
        BinaryPrimitives.WriteUInt32LittleEndian(tag.Slice(4), (uint)f);
        f = w2 + _s2 + (f >> 32);
        BinaryPrimitives.WriteUInt32LittleEndian(tag.Slice(8), (uint)f);
        f = w3 + _s3 + (f >> 32);
        BinaryPrimitives.WriteUInt32LittleEndian(tag.Slice(12), (uint)f);

        this = default;
    }

    /// <summary>h = (h + block + hibit × 2^128) × r mod 2^130 - 5 (RFC 8439 §2.5.1).</summary>
    private void ProcessBlock(ReadOnlySpan<byte> block, uint hibit)
    {
        uint t0 = BinaryPrimitives.ReadUInt32LittleEndian(block);
        uint t1 = BinaryPrimitives.ReadUInt32LittleEndian(block.Slice(4));
        uint t2 = BinaryPrimitives.ReadUInt32LittleEndian(block.Slice(8));
        uint t3 = BinaryPrimitives.ReadUInt32LittleEndian(block.Slice(12));

        ulong h0 = _h0 + (t0 & Mask26);
        ulong h1 = _h1 + (((t0 >> 26) | (t1 << 6)) & Mask26);
        ulong h2 = _h2 + (((t1 >> 20) | (t2 << 12)) & Mask26);
        ulong h3 = _h3 + (((t2 >> 14) | (t3 << 18)) & Mask26);
        ulong h4 = _h4 + ((t3 >> 8) | hibit);

        ulong r0 = _r0, r1 = _r1, r2 = _r2, r3 = _r3, r4 = _r4;

        // 2^130 = 5 (mod p), so limbs that spill past 2^130 come back multiplied by 5.
        ulong s1 = r1 * 5, s2 = r2 * 5, s3 = r3 * 5, s4 = r4 * 5;

        ulong d0 = (h0 * r0) + (h1 * s4) + (h2 * s3) + (h3 * s2) + (h4 * s1);
        ulong d1 = (h0 * r1) + (h1 * r0) + (h2 * s4) + (h3 * s3) + (h4 * s2);
        ulong d2 = (h0 * r2) + (h1 * r1) + (h2 * r0) + (h3 * s4) + (h4 * s3);
        ulong d3 = (h0 * r3) + (h1 * r2) + (h2 * r1) + (h3 * r0) + (h4 * s4);
        ulong d4 = (h0 * r4) + (h1 * r3) + (h2 * r2) + (h3 * r1) + (h4 * r0);

        ulong c;
        c = d0 >> 26; uint n0 = (uint)d0 & Mask26; d1 += c;
        c = d1 >> 26; uint n1 = (uint)d1 & Mask26; d2 += c;
        c = d2 >> 26; uint n2 = (uint)d2 & Mask26; d3 += c;
        c = d3 >> 26; uint n3 = (uint)d3 & Mask26; d4 += c;
        c = d4 >> 26; uint n4 = (uint)d4 & Mask26;
        ulong m0 = n0 + (c * 5);
        n0 = (uint)m0 & Mask26;
        n1 += (uint)(m0 >> 26);

        _h0 = n0;
        _h1 = n1;
        _h2 = n2;
        _h3 = n3;
        _h4 = n4;
    }

    /// <summary>16 inline octets for the pending partial block.</summary>
    [System.Runtime.CompilerServices.InlineArray(16)]
    private struct Block16
    {
        private byte _element0;
    }
}
