using Managed.Zmq.Security.Crypto;

namespace Managed.Zmq.Tests.Security.Crypto;

/// <summary>The public-key path (edwards25519 with a table) against the Montgomery ladder on u = 9 (RFC 7748 §4.1, §5).</summary>
public sealed class EdwardsBaseTests
{
    public static TheoryData<string> EdgeScalars => new()
    {
        // Distinct once clamped (RFC 7748 §5). Their signed radix-16 digits between the first and the last, in turn:
        // all 0 (2^254 alone); all 0 with -8 first and 8 last (every bit that can be set); -8 and 1; all -7; all 7;
        // all -6; -1 and 1; every value from -8 to 7.
        new string('0', 64),
        new string('f', 64),
        "0808080808080808080808080808080808080808080808080808080808080808",
        "8888888888888888888888888888888888888888888888888888888888888888",
        "7777777777777777777777777777777777777777777777777777777777777777",
        "9999999999999999999999999999999999999999999999999999999999999999",
        "f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0",
        "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0",
    };

    [Theory]
    [MemberData(nameof(EdgeScalars))]
    public void ScalarMultBase_EdgeScalars_MatchesTheLadderOnNine(string scalarHex)
    {
        AssertMatchesLadder(Convert.FromHexString(scalarHex));
    }

    [Fact]
    public void ScalarMultBase_RandomScalars_MatchesTheLadderOnNine()
    {
        var random = new Random(7748);
        var scalar = new byte[X25519.Size];
        for (int i = 0; i < 200; i++)
        {
            random.NextBytes(scalar);
            AssertMatchesLadder(scalar);
        }
    }

    private static void AssertMatchesLadder(byte[] scalar)
    {
        var nine = new byte[X25519.Size];
        nine[0] = 9;
        var expected = new byte[X25519.Size];
        var actual = new byte[X25519.Size];
        X25519.ScalarMult(scalar, nine, expected);
        EdwardsBase.ScalarMultBase(scalar, actual);
        Assert.Equal(Convert.ToHexStringLower(expected), Convert.ToHexStringLower(actual));
    }
}
