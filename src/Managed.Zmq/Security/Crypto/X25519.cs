using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Security.Cryptography;

namespace Managed.Zmq.Security.Crypto;

/// <summary>The X25519 function of RFC 7748 §5: a Montgomery ladder over Curve25519.</summary>
internal static class X25519
{
    /// <summary>Scalar, u-coordinate and result size.</summary>
    public const int Size = 32;

    // RFC 7748 §4.1: (A - 2) / 4 for Curve25519.
    private const uint A24 = 121665;

    /// <summary>Computes X25519(k, 9): the public key of secret key <paramref name="scalar"/> (RFC 7748 §6.1).</summary>
    /// <remarks>On edwards25519 with a table of the base point's multiples (<see cref="EdwardsBase"/>), not the ladder.</remarks>
    public static void ScalarMultBase(ReadOnlySpan<byte> scalar, Span<byte> result) => EdwardsBase.ScalarMultBase(scalar, result);

    /// <summary>RFC 7748 §5 decodeScalar25519 into <paramref name="k"/>: bits 0-2 and 255 cleared, bit 254 set.</summary>
    public static void DecodeScalar(ReadOnlySpan<byte> scalar, Span<byte> k)
    {
        scalar[..Size].CopyTo(k);
        k[0] &= 248;
        k[Size - 1] &= 127;
        k[Size - 1] |= 64;
    }

    /// <summary>Computes X25519(k, u), clamping k and masking the top bit of u as RFC 7748 §5 requires.</summary>
    /// <returns>False when the result is all zeros (u of small order), which RFC 7748 §6.1 says to check for.</returns>
    /// <remarks>
    /// Compiled fully optimised on its first call (so are the field operations it calls): a process
    /// runs only a few of these per connection, so under tiered compilation its first CURVE
    /// handshakes ran the ladder as unoptimised code.
    /// </remarks>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static bool ScalarMult(ReadOnlySpan<byte> scalar, ReadOnlySpan<byte> u, Span<byte> result)
    {
        Debug.Assert(scalar.Length == Size && u.Length == Size && result.Length >= Size, "X25519 works on 32-octet values.");

        Span<byte> k = stackalloc byte[Size];
        DecodeScalar(scalar, k);

        FieldElement x1 = FieldElement.FromBytes(u);
        FieldElement x2 = FieldElement.One;
        FieldElement z2 = FieldElement.Zero;
        FieldElement x3 = x1;
        FieldElement z3 = FieldElement.One;
        ulong swap = 0;

        // RFC 7748 §5: the ladder, from bit 254 down to bit 0, swapping in constant time.
        for (int t = 254; t >= 0; t--)
        {
            ulong kt = (ulong)((k[t >> 3] >> (t & 7)) & 1);
            swap ^= kt;
            FieldElement.ConditionalSwap(ref x2, ref x3, swap);
            FieldElement.ConditionalSwap(ref z2, ref z3, swap);
            swap = kt;

            FieldElement a = FieldElement.Add(x2, z2);
            FieldElement aa = FieldElement.Square(a);
            FieldElement b = FieldElement.Subtract(x2, z2);
            FieldElement bb = FieldElement.Square(b);
            FieldElement e = FieldElement.Subtract(aa, bb);
            FieldElement c = FieldElement.Add(x3, z3);
            FieldElement d = FieldElement.Subtract(x3, z3);
            FieldElement da = FieldElement.Multiply(d, a);
            FieldElement cb = FieldElement.Multiply(c, b);
            x3 = FieldElement.Square(FieldElement.Add(da, cb));
            z3 = FieldElement.Multiply(x1, FieldElement.Square(FieldElement.Subtract(da, cb)));
            x2 = FieldElement.Multiply(aa, bb);
            z2 = FieldElement.Multiply(e, FieldElement.Add(aa, FieldElement.MultiplySmall(e, A24)));
        }

        FieldElement.ConditionalSwap(ref x2, ref x3, swap);
        FieldElement.ConditionalSwap(ref z2, ref z3, swap);

        FieldElement output = FieldElement.Multiply(x2, FieldElement.Invert(z2));
        output.ToBytes(result);

        CryptographicOperations.ZeroMemory(k);
        x2 = default;
        z2 = default;
        x3 = default;
        z3 = default;
        output = default;

        // RFC 7748 §6.1: an all-zero shared secret means the peer's point had small order. OR the
        // octets together so the check takes the same time whatever the result.
        int accumulator = 0;
        for (int i = 0; i < Size; i++)
        {
            accumulator |= result[i];
        }

        return accumulator != 0;
    }
}
