using Managed.Zmq.Security.Crypto;

namespace Managed.Zmq.Tests.Security.Crypto;

/// <summary>X25519 against RFC 7748 §5.2 and §6.1.</summary>
public sealed class X25519Tests
{
    [Theory]
    [InlineData(
        "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
        "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
        "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552")]
    [InlineData(
        "4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
        "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
        "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957")]
    public void ScalarMult_Rfc7748Section52_MatchesVector(string scalar, string u, string expected)
    {
        var result = new byte[32];

        bool valid = X25519.ScalarMult(Convert.FromHexString(scalar), Convert.FromHexString(u), result);

        Assert.True(valid);
        Assert.Equal(expected, Convert.ToHexStringLower(result));
    }

    [Theory]
    [InlineData(1, "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079")]
    [InlineData(1000, "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51")]
    public void ScalarMult_Rfc7748Iterated_MatchesVector(int iterations, string expected)
    {
        // RFC 7748 §5.2: k = u = 9; each round computes X25519(k, u), then u = old k, k = result.
        var k = new byte[32];
        var u = new byte[32];
        k[0] = 9;
        u[0] = 9;
        var result = new byte[32];
        for (int i = 0; i < iterations; i++)
        {
            X25519.ScalarMult(k, u, result);
            k.CopyTo(u, 0);
            result.CopyTo(k, 0);
        }

        Assert.Equal(expected, Convert.ToHexStringLower(k));
    }

    [Fact]
    public void ScalarMultBase_Rfc7748Section61_DerivesBothPublicKeysAndTheSharedSecret()
    {
        byte[] aliceSecret = Convert.FromHexString("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a");
        byte[] bobSecret = Convert.FromHexString("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb");
        var alicePublic = new byte[32];
        var bobPublic = new byte[32];
        var shared1 = new byte[32];
        var shared2 = new byte[32];

        X25519.ScalarMultBase(aliceSecret, alicePublic);
        X25519.ScalarMultBase(bobSecret, bobPublic);
        X25519.ScalarMult(aliceSecret, bobPublic, shared1);
        X25519.ScalarMult(bobSecret, alicePublic, shared2);

        Assert.Equal("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a", Convert.ToHexStringLower(alicePublic));
        Assert.Equal("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f", Convert.ToHexStringLower(bobPublic));
        Assert.Equal("4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742", Convert.ToHexStringLower(shared1));
        Assert.Equal(shared1, shared2);
    }

    [Theory]
    [InlineData("0000000000000000000000000000000000000000000000000000000000000000")]
    [InlineData("0100000000000000000000000000000000000000000000000000000000000000")]
    [InlineData("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800")]
    public void ScalarMult_SmallOrderPoint_ReturnsFalse(string u)
    {
        var scalar = new byte[32];
        scalar[0] = 0x42;
        scalar[17] = 0x99;
        var result = new byte[32];

        Assert.False(X25519.ScalarMult(scalar, Convert.FromHexString(u), result));
        Assert.All(result, b => Assert.Equal(0, b));
    }

    [Fact]
    public void ScalarMultBase_CurveZmqTestKeys_DeriveTheirPublicKeys()
    {
        var derived = new byte[32];

        X25519.ScalarMultBase(Convert.FromHexString(CurveTestKeys.ClientSecretHex), derived);
        Assert.Equal(CurveTestKeys.ClientPublicHex, Convert.ToHexString(derived));

        X25519.ScalarMultBase(Convert.FromHexString(CurveTestKeys.ServerSecretHex), derived);
        Assert.Equal(CurveTestKeys.ServerPublicHex, Convert.ToHexString(derived));

        Assert.True(X25519.ScalarMult(Convert.FromHexString(CurveTestKeys.ClientSecretHex), Convert.FromHexString(CurveTestKeys.ServerPublicHex), derived));
        Assert.Equal("535e8ec77a336a164c2484095d83b7e5f902a695c27482af6e07e09e31611b1c", Convert.ToHexStringLower(derived));
    }
}
