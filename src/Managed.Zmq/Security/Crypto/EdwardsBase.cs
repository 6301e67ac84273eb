using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Security.Cryptography;

namespace Managed.Zmq.Security.Crypto;

/// <summary>
/// X25519(k, 9), a public key, computed on edwards25519 with a table of multiples of its base point instead of the
/// Montgomery ladder: curve25519, the curve of X25519, and edwards25519 are birationally equivalent (RFC 7748 §4.1),
/// with the base point B (RFC 8032 §5.1) mapped to u = 9, so u(k B) = (1 + y) / (1 - y) of the Edwards point k B.
/// </summary>
/// <remarks>
/// <para>k is written in 64 signed digits of radix 16, each in [-8, 8], and k B = Σ e_i 16^i B. The table holds
/// j × 256^r × B for j = 1..8 and r = 0..31, so the odd digits are added from the table, the sum multiplied by 16,
/// and the even digits added: 64 additions and 4 doublings where the ladder takes 255 steps. Every digit selects its
/// entry by masks from all eight of its row, and negates it by masks, so the work and the memory read are the same
/// whatever the key.</para>
/// <para>Points are in extended coordinates (X : Y : Z : T), x = X / Z, y = Y / Z, x y = T / Z, with the addition
/// and doubling of RFC 8032 §5.1.4 (which are complete on this curve: they hold for equal points and the identity).
/// Table entries are kept as (Y + X, Y - X, Z, 2 d T), the form an addition consumes. The table is built once per
/// process, from B, by additions and doublings (no inversion).</para>
/// </remarks>
internal static class EdwardsBase
{
    /// <summary>Bits per digit: radix 16.</summary>
    private const int RadixBits = 4;

    /// <summary>Digits of a 32-octet scalar: 64.</summary>
    private const int Digits = 8 * X25519.Size / RadixBits;

    /// <summary>A row per pair of digits, so row r holds multiples of 256^r × B: 32 rows.</summary>
    private const int Rows = Digits / 2;
    private const int BitsPerRow = 2 * RadixBits;

    /// <summary>A digit's magnitude is at most 8, half the radix.</summary>
    private const int EntriesPerRow = 1 << (RadixBits - 1);

    // RFC 8032 §5.1: d of edwards25519 (-121665 / 121666) and the base point B (y = 4 / 5, x the even root), as
    // 32 little-endian octets (RFC 7748 §5's encoding).
    private const string D = "a3785913ca4deb75abd841414d0a700098e879777940c78c73fe6f2bee6c0352";
    private const string BaseX = "1ad5258f602d56c9b2a7259560c72c695cdcd6fd31e2a4c0fe536ecdd3366921";
    private const string BaseY = "5866666666666666666666666666666666666666666666666666666666666666";

    private static readonly Lazy<Cached[]> s_table = new(BuildTable);

    /// <summary>Computes X25519(k, 9) (RFC 7748 §6.1), clamping k as RFC 7748 §5 requires.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static void ScalarMultBase(ReadOnlySpan<byte> scalar, Span<byte> result)
    {
        Debug.Assert(scalar.Length == X25519.Size && result.Length >= X25519.Size, "X25519 works on 32-octet values.");
        Cached[] table = s_table.Value;

        // The clamped scalar in radix-16 digits, then carried into [-8, 8]: the top digit, at most 7 for a clamped
        // scalar, ends at most 8.
        Span<byte> k = stackalloc byte[X25519.Size];
        X25519.DecodeScalar(scalar, k);
        Span<sbyte> digits = stackalloc sbyte[Digits];
        for (int i = 0; i < X25519.Size; i++)
        {
            digits[2 * i] = (sbyte)(k[i] & 15);
            digits[(2 * i) + 1] = (sbyte)(k[i] >> 4);
        }

        CryptographicOperations.ZeroMemory(k);

        int carry = 0;
        for (int i = 0; i < digits.Length - 1; i++)
        {
            int digit = digits[i] + carry;
            carry = (digit + 8) >> 4;
            digits[i] = (sbyte)(digit - (carry << 4));
        }

        digits[^1] += (sbyte)carry;

        Extended sum = Extended.Identity;
        for (int i = 1; i < digits.Length; i += 2)
        {
            sum = Add(sum, Select(table, i / 2, digits[i]));
        }

        sum = DoubleTimes(sum, RadixBits);
        for (int i = 0; i < digits.Length; i += 2)
        {
            sum = Add(sum, Select(table, i / 2, digits[i]));
        }

        // u = (1 + y) / (1 - y) = (Z + Y) / (Z - Y); k B is never the identity for a clamped k, so Z - Y is not 0.
        FieldElement u = FieldElement.Multiply(FieldElement.Add(sum.Z, sum.Y), FieldElement.Invert(FieldElement.Subtract(sum.Z, sum.Y)));
        u.ToBytes(result);

        CryptographicOperations.ZeroMemory(System.Runtime.InteropServices.MemoryMarshal.AsBytes(digits));
        sum = default;
        u = default;
    }

    /// <summary>
    /// Entry |digit| of row <paramref name="row"/> (the identity for 0), negated when the digit is negative: read by
    /// masks from every entry of the row, so neither the time nor the memory touched depends on the digit.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Cached Select(Cached[] table, int row, sbyte digit)
    {
        int negative = (digit >> 7) & 1;
        int magnitude = digit - (2 * negative * digit);
        Cached selected = Cached.Identity;
        int first = row * EntriesPerRow;
        for (int j = 1; j <= EntriesPerRow; j++)
        {
            // 1 when magnitude == j, else 0, without a comparison the compiler could turn into a branch.
            ulong equal = (ulong)((uint)((magnitude ^ j) - 1) >> 31);
            Cached.ConditionalMove(ref selected, table[first + j - 1], equal);
        }

        // -(x, y) = (-x, y): Y + X and Y - X trade places and T changes sign.
        FieldElement.ConditionalSwap(ref selected.YPlusX, ref selected.YMinusX, (ulong)negative);
        FieldElement.ConditionalMove(ref selected.T2D, FieldElement.Subtract(FieldElement.Zero, selected.T2D), (ulong)negative);
        return selected;
    }

    /// <summary>p + q (RFC 8032 §5.1.4, with q's sums and 2 d T made ahead): 8 multiplications.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static Extended Add(in Extended p, in Cached q)
    {
        FieldElement a = FieldElement.Multiply(FieldElement.Subtract(p.Y, p.X), q.YMinusX);
        FieldElement b = FieldElement.Multiply(FieldElement.Add(p.Y, p.X), q.YPlusX);
        FieldElement c = FieldElement.Multiply(p.T, q.T2D);
        FieldElement zz = FieldElement.Multiply(p.Z, q.Z);
        FieldElement d = FieldElement.Add(zz, zz);
        FieldElement e = FieldElement.Subtract(b, a);
        FieldElement f = FieldElement.Subtract(d, c);
        FieldElement g = FieldElement.Add(d, c);
        FieldElement h = FieldElement.Add(b, a);
        return new Extended(FieldElement.Multiply(e, f), FieldElement.Multiply(g, h), FieldElement.Multiply(f, g), FieldElement.Multiply(e, h));
    }

    /// <summary>2 p (RFC 8032 §5.1.4's doubling with every coordinate negated, which is the same point): 4 squarings, 4 multiplications.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static Extended Double(in Extended p)
    {
        FieldElement xx = FieldElement.Square(p.X);
        FieldElement yy = FieldElement.Square(p.Y);
        FieldElement zz = FieldElement.Square(p.Z);
        FieldElement e = FieldElement.Subtract(FieldElement.Subtract(FieldElement.Square(FieldElement.Add(p.X, p.Y)), xx), yy);
        FieldElement sum = FieldElement.Add(yy, xx);          // -H
        FieldElement difference = FieldElement.Subtract(yy, xx); // G
        FieldElement t = FieldElement.Subtract(FieldElement.Add(zz, zz), difference); // -F
        return new Extended(FieldElement.Multiply(e, t), FieldElement.Multiply(sum, difference), FieldElement.Multiply(difference, t), FieldElement.Multiply(e, sum));
    }

    /// <summary>2^<paramref name="count"/> p: <paramref name="count"/> doublings in a row.</summary>
    private static Extended DoubleTimes(Extended p, int count)
    {
        for (int i = 0; i < count; i++)
        {
            p = Double(p);
        }

        return p;
    }

    /// <summary>The table: entry r × 8 + j - 1 is j × 256^r × B.</summary>
    private static Cached[] BuildTable()
    {
        FieldElement d = FromHex(D);
        FieldElement d2 = FieldElement.Add(d, d);
        FieldElement x = FromHex(BaseX);
        FieldElement y = FromHex(BaseY);
        var rowBase = new Extended(x, y, FieldElement.One, FieldElement.Multiply(x, y));

        var table = new Cached[Rows * EntriesPerRow];
        for (int row = 0; row < Rows; row++)
        {
            Cached first = Cached.From(rowBase, d2);
            Extended multiple = rowBase;
            table[row * EntriesPerRow] = first;
            for (int j = 1; j < EntriesPerRow; j++)
            {
                multiple = Add(multiple, first);
                table[(row * EntriesPerRow) + j] = Cached.From(multiple, d2);
            }

            if (row < Rows - 1)
            {
                rowBase = DoubleTimes(rowBase, BitsPerRow);
            }
        }

        return table;
    }

    private static FieldElement FromHex(string littleEndianHex) => FieldElement.FromBytes(Convert.FromHexString(littleEndianHex));

    /// <summary>A point in extended coordinates.</summary>
    private readonly struct Extended(FieldElement x, FieldElement y, FieldElement z, FieldElement t)
    {
        public readonly FieldElement X = x;
        public readonly FieldElement Y = y;
        public readonly FieldElement Z = z;
        public readonly FieldElement T = t;

        /// <summary>(0, 1): X = 0, Y = Z = 1, T = 0.</summary>
        public static Extended Identity => new(FieldElement.Zero, FieldElement.One, FieldElement.One, FieldElement.Zero);
    }

    /// <summary>A point as an addition consumes it: (Y + X, Y - X, Z, 2 d T).</summary>
    private struct Cached
    {
        public FieldElement YPlusX;
        public FieldElement YMinusX;
        public FieldElement Z;
        public FieldElement T2D;

        /// <summary>The identity: Y + X = Y - X = Z = 1, T = 0.</summary>
        public static Cached Identity => new() { YPlusX = FieldElement.One, YMinusX = FieldElement.One, Z = FieldElement.One };

        public static Cached From(in Extended p, in FieldElement d2) => new()
        {
            YPlusX = FieldElement.Add(p.Y, p.X),
            YMinusX = FieldElement.Subtract(p.Y, p.X),
            Z = p.Z,
            T2D = FieldElement.Multiply(p.T, d2),
        };

        /// <summary>Sets <paramref name="target"/> to <paramref name="source"/> when <paramref name="move"/> is 1, by masks.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public static void ConditionalMove(ref Cached target, in Cached source, ulong move)
        {
            FieldElement.ConditionalMove(ref target.YPlusX, source.YPlusX, move);
            FieldElement.ConditionalMove(ref target.YMinusX, source.YMinusX, move);
            FieldElement.ConditionalMove(ref target.Z, source.Z, move);
            FieldElement.ConditionalMove(ref target.T2D, source.T2D, move);
        }
    }
}
