using System.Numerics;
using Managed.Zmq.Security.Crypto;

namespace Managed.Zmq.Tests.Security.Crypto;

/// <summary>
/// GF(2^255 - 19) arithmetic against System.Numerics.BigInteger, with limbs up to the bound the field operations
/// promise to accept (below 2^52): the products' sums are sized to that bound, so its edge is where an overflow would show.
/// </summary>
public sealed class FieldElementTests
{
    private static readonly BigInteger P = (BigInteger.One << 255) - 19;
    private const ulong LimbBound = (1UL << 52) - 1;

    public static TheoryData<int> Seeds => new() { 1, 2, 3 };

    [Theory]
    [MemberData(nameof(Seeds))]
    public void Multiply_LimbsUpToTheBound_MatchesBigInteger(int seed)
    {
        foreach ((FieldElement a, FieldElement b) in Operands(seed))
        {
            Assert.Equal(Value(a) * Value(b) % P, Canonical(FieldElement.Multiply(a, b)));
        }
    }

    [Theory]
    [MemberData(nameof(Seeds))]
    public void Square_LimbsUpToTheBound_MatchesBigInteger(int seed)
    {
        foreach ((FieldElement a, _) in Operands(seed))
        {
            Assert.Equal(Value(a) * Value(a) % P, Canonical(FieldElement.Square(a)));
        }
    }

    [Theory]
    [MemberData(nameof(Seeds))]
    public void MultiplySmall_LimbsUpToTheBound_MatchesBigInteger(int seed)
    {
        foreach ((FieldElement a, _) in Operands(seed))
        {
            Assert.Equal(Value(a) * 121665 % P, Canonical(FieldElement.MultiplySmall(a, 121665)));
        }
    }

    [Fact]
    public void Multiply_ResultLimbs_StayWithinTheBound()
    {
        // Each result is the next operand in the ladder, so it must keep the bound the operations assume.
        foreach ((FieldElement a, FieldElement b) in Operands(4))
        {
            AssertWithinBound(FieldElement.Multiply(a, b));
            AssertWithinBound(FieldElement.Square(a));
        }
    }

    /// <summary>Random operands, the all-maximal one and mixes of maximal and zero limbs.</summary>
    private static IEnumerable<(FieldElement, FieldElement)> Operands(int seed)
    {
        var random = new Random(seed);
        ulong Limb() => random.Next(4) switch
        {
            0 => LimbBound,
            1 => 0,
            _ => (ulong)random.NextInt64() & LimbBound,
        };

        FieldElement Max() => new() { L0 = LimbBound, L1 = LimbBound, L2 = LimbBound, L3 = LimbBound, L4 = LimbBound };
        yield return (Max(), Max());
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

    private static void AssertWithinBound(FieldElement e)
    {
        Assert.True(e.L0 <= LimbBound && e.L1 <= LimbBound && e.L2 <= LimbBound && e.L3 <= LimbBound && e.L4 <= LimbBound);
    }
}
