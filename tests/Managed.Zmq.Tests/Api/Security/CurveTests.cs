using Managed.Zmq.Tests.Security.Crypto;

namespace Managed.Zmq.Tests.Api.Security;

/// <summary>The public <see cref="Curve"/> helpers.</summary>
public sealed class CurveTests
{
    [Fact]
    public void Constants_MatchLibzmq()
    {
        Assert.Equal(32, Curve.KeySize);
        Assert.Equal(41, Curve.Z85KeySize);
    }

    [Fact]
    public void GenerateKeypair_Twice_GivesDistinctConsistentZ85Pairs()
    {
        (string publicKey, string secretKey) = Curve.GenerateKeypair();
        (string otherPublic, _) = Curve.GenerateKeypair();

        Assert.Equal(40, publicKey.Length);
        Assert.Equal(40, secretKey.Length);
        Assert.Equal(32, Z85.Decode(publicKey).Length);
        Assert.Equal(publicKey, Curve.DerivePublicKey(secretKey));
        Assert.NotEqual(publicKey, otherPublic);
    }

    [Theory]
    [InlineData(CurveTestKeys.ClientSecretZ85, CurveTestKeys.ClientPublicZ85)]
    [InlineData(CurveTestKeys.ServerSecretZ85, CurveTestKeys.ServerPublicZ85)]
    public void DerivePublicKey_LibzmqTestKeys_MatchesDocumentedPublicKey(string secretKey, string expected)
    {
        Assert.Equal(expected, Curve.DerivePublicKey(secretKey));
    }

    [Fact]
    public void Z85_LibzmqTestKeys_MatchTheirHex()
    {
        Assert.Equal(CurveTestKeys.ClientPublicHex, Convert.ToHexString(Z85.Decode(CurveTestKeys.ClientPublicZ85)));
        Assert.Equal(CurveTestKeys.ClientSecretHex, Convert.ToHexString(Z85.Decode(CurveTestKeys.ClientSecretZ85)));
        Assert.Equal(CurveTestKeys.ServerPublicHex, Convert.ToHexString(Z85.Decode(CurveTestKeys.ServerPublicZ85)));
        Assert.Equal(CurveTestKeys.ServerSecretHex, Convert.ToHexString(Z85.Decode(CurveTestKeys.ServerSecretZ85)));
        Assert.Equal("HelloWorld", Z85.Encode([0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B]));
    }

    [Fact]
    public void DerivePublicKey_Null_ThrowsArgumentNullException()
    {
        var exception = Assert.Throws<ArgumentNullException>(() => Curve.DerivePublicKey(null!));
        Assert.Equal("secretKey", exception.ParamName);
    }

    [Theory]
    [InlineData("")]
    [InlineData("D:)Q[IlAW!ahhC2ac:9*A}h:p?([4%wOTJ%JR%c")]
    [InlineData("D:)Q[IlAW!ahhC2ac:9*A}h:p?([4%wOTJ%JR%cs0")]
    [InlineData("D:)Q[IlAW!ahhC2ac:9*A}h:p?([4%wOTJ%JR%cs00000")]
    [InlineData("D:)Q[IlAW!ahhC2ac:9*A}h:p?([4%wOTJ%JR%c~")]
    [InlineData("D:)Q[IlAW!ahhC2ac:9*A}h:p?([4%wOTJ%JR%c ")]
    [InlineData("%%%%%D:)Q[IlAW!ahhC2ac:9*A}h:p?([4%wOTJ%")]
    public void DerivePublicKey_NotFortyValidZ85Characters_ThrowsEinval(string secretKey)
    {
        var exception = Assert.Throws<ZmqException>(() => Curve.DerivePublicKey(secretKey));
        Assert.Equal(ZmqConstants.EINVAL, exception.ErrorNumber);
    }
}
