using System.Numerics;
using Managed.Zmq.Security.Crypto;

namespace Managed.Zmq.Tests.Security.Crypto;

/// <summary>
/// GF(2^255 - 19) arithmetic against System.Numerics.BigInteger, at the edges of the limb bounds in FieldElement's
/// remarks: every operation returns limbs below 2^52, and the products and ToBytes accept limbs below 2^54. The
/// products' sums are sized to that bound, so its edge is where an overflow would show.
/// </summary>
public sealed class FieldElementTests
{
    private static readonly BigInteger P = (BigInteger.One << 255) - 19;
    private const ulong ProductOperandBound = (1UL << 54) - 1;
    private const ulong ReducedBound = (1UL << 52) - 1;

    public static TheoryData<int> Seeds => new() { 1, 2, 3 };

    [Theory]
    [MemberData(nameof(Seeds))]
    public void Multiply_LimbsUpToTheBound_MatchesBigIntegerAndIsReduced(int seed)
    {
        foreach ((FieldElement a, FieldElement b) in Operands(seed, ProductOperandBound))
        {
            FieldElement product = FieldElement.Multiply(a, b);
            Assert.Equal(Value(a) * Value(b) % P, Canonical(product));
            AssertLimbsAtMost(product, ReducedBound);
        }
    }

    [Theory]
    [MemberData(nameof(Seeds))]
    public void Square_LimbsUpToTheBound_MatchesBigIntegerAndIsReduced(int seed)
    {
        foreach ((FieldElement a, _) in Operands(seed, ProductOperandBound))
        {
            FieldElement square = FieldElement.Square(a);
            Assert.Equal(Value(a) * Value(a) % P, Canonical(square));
            AssertLimbsAtMost(square, ReducedBound);
        }
    }

    [Theory]
    [MemberData(nameof(Seeds))]
    public void MultiplySmall_LimbsUpToTheBound_MatchesBigIntegerAndIsReduced(int seed)
    {
        foreach ((FieldElement a, _) in Operands(seed, ProductOperandBound))
        {
            FieldElement product = FieldElement.MultiplySmall(a, 121665);
            Assert.Equal(Value(a) * 121665 % P, Canonical(product));
            AssertLimbsAtMost(product, ReducedBound);
        }
    }

    [Theory]
    [MemberData(nameof(Seeds))]
    public void ToBytes_LimbsUpToTheBound_EncodesTheValueModP(int seed)
    {
        foreach ((FieldElement a, _) in Operands(seed, ProductOperandBound))
        {
            Assert.Equal(Value(a) % P, Canonical(a));
        }
    }

    [Theory]
    [MemberData(nameof(Seeds))]
    public void AddAndSubtract_ReducedOperands_MatchBigIntegerAndAreReduced(int seed)
    {
        foreach ((FieldElement a, FieldElement b) in Operands(seed, ReducedBound))
        {
            FieldElement sum = FieldElement.Add(a, b);
            FieldElement difference = FieldElement.Subtract(a, b);
            Assert.Equal((Value(a) + Value(b)) % P, Canonical(sum));
            Assert.Equal((((Value(a) - Value(b)) % P) + P) % P, Canonical(difference));
            AssertLimbsAtMost(sum, ReducedBound);
            AssertLimbsAtMost(difference, ReducedBound);
        }
    }

    /// <summary>Random operands with limbs up to <paramref name="bound"/>, the all-maximal pair and mixes of maximal and zero limbs.</summary>
    private static IEnumerable<(FieldElement, FieldElement)> Operands(int seed, ulong bound)
    {
        var random = new Random(seed);
        ulong Limb() => random.Next(4) switch
        {
            0 => bound,
            1 => 0,
            _ => (ulong)random.NextInt64() & bound,
        };

        FieldElement Max() => new() { L0 = bound, L1 = bound, L2 = bound, L3 = bound, L4 = bound };
        yield return (Max(), Max());
        yield return (Max(), default);
        yield return (default, Max());
        for (int i = 0; i < 2000; i++)
        {
            yield return (new FieldElement { L0 = Limb(), L1 = Limb(), L2 = Limb(), L3 = Limb(), L4 = Limb() },
                new FieldElement { L0 = Limb(), L1 = Limb(), L2 = Limb(), L3 = Limb(), L4 = Limb() });
        }
    }

    private static BigInteger Value(FieldElement e) =>
        e.L0 + ((BigInteger)e.L1 << 51) + ((BigInteger)e.L2 << 102) + ((BigInteger)e.L3 << 153) + ((BigInteger)e.L4 << 204);

    private static BigInteger Canonical(FieldElement e)
    {
        var bytes = new byte[32];
        e.ToBytes(bytes);
        return new BigInteger(bytes, isUnsigned: true);
    }

    private static void AssertLimbsAtMost(FieldElement e, ulong bound)
    {
        Assert.True(e.L0 <= bound && e.L1 <= bound && e.L2 <= bound && e.L3 <= bound && e.L4 <= bound, $"limbs {e.L0:x} {e.L1:x} {e.L2:x} {e.L3:x} {e.L4:x} above {bound:x}");
    }
}
