namespace Managed.Zmq.Tests.Api.Security;

public class Z85Tests
{
    private static readonly byte[] s_helloBytes = [0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B];

    [Fact]
    public void Encode_Rfc32Vector_GivesHelloWorld() => Assert.Equal("HelloWorld", Z85.Encode(s_helloBytes));

    [Fact]
    public void Decode_Rfc32Vector_GivesBytes() => Assert.Equal(s_helloBytes, Z85.Decode("HelloWorld"));

    [Theory]
    [InlineData("BB88471D65E2659B30C55A5321CEBB5AAB2B70A398645C26DCA2B2FCB43FC518", "Yne@$w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hID")]
    [InlineData("7BB864B489AFA3671FBE69101F94B38972F24816DFB01B51656B3FEC8DFD0888", "D:)Q[IlAW!ahhC2ac:9*A}h:p?([4%wOTJ%JR%cs")]
    public void EncodeDecode_CurveKeyVectors_RoundTrip(string hex, string z85)
    {
        byte[] bytes = Convert.FromHexString(hex);
        Assert.Equal(z85, Z85.Encode(bytes));
        Assert.Equal(bytes, Z85.Decode(z85));
    }

    [Fact]
    public void Encode_Empty_GivesEmptyString() => Assert.Equal("", Z85.Encode([]));

    [Fact]
    public void Decode_Empty_GivesEmptyArray() => Assert.Empty(Z85.Decode(""));

    [Fact]
    public void Encode_Extremes_UseFirstAndLastDigits()
    {
        Assert.Equal("00000", Z85.Encode(new byte[4]));
        Assert.Equal("%nSc0", Z85.Encode([0xFF, 0xFF, 0xFF, 0xFF]));
        Assert.Equal(new byte[] { 0xFF, 0xFF, 0xFF, 0xFF }, Z85.Decode("%nSc0"));
    }

    [Fact]
    public void Encode_LargeInput_RoundTripsWithoutStackOverflow()
    {
        byte[] data = new byte[16 * 1024 * 1024];
        new Random(1).NextBytes(data);
        string text = Z85.Encode(data);
        Assert.Equal(data.Length / 4 * 5, text.Length);
        Assert.Equal(data, Z85.Decode(text));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(3)]
    [InlineData(5)]
    public void Encode_LengthNotMultipleOf4_ThrowsArgumentException(int length)
    {
        var ex = Assert.Throws<ArgumentException>(() => Z85.Encode(new byte[length]));
        Assert.Equal("data", ex.ParamName);
        Assert.StartsWith("Data length must be divisible by 4", ex.Message);
    }

    [Fact]
    public void Decode_Null_ThrowsArgumentNull()
    {
        var ex = Assert.Throws<ArgumentNullException>(() => Z85.Decode(null!));
        Assert.Equal("encoded", ex.ParamName);
    }

    [Theory]
    [InlineData("a")]
    [InlineData("abcd")]
    [InlineData("abcdef")]
    public void Decode_LengthNotMultipleOf5_ThrowsArgumentException(string text)
    {
        var ex = Assert.Throws<ArgumentException>(() => Z85.Decode(text));
        Assert.Equal("encoded", ex.ParamName);
        Assert.StartsWith("Encoded string length must be divisible by 5", ex.Message);
    }

    [Theory]
    [InlineData("Hello Worl")]
    [InlineData("abc\"d")]
    [InlineData("abc~d")]
    [InlineData("abcd\u00e9")]
    [InlineData("abcd\u0000")]
    public void Decode_CharacterOutsideAlphabet_ThrowsEinval(string text)
    {
        var ex = Assert.Throws<ZmqException>(() => Z85.Decode(text));
        Assert.Equal(ZmqConstants.EINVAL, ex.ErrorNumber);
        Assert.Equal(ErrorCode.EINVAL, ex.ErrorCode);
    }

    [Theory]
    [InlineData("%nSc1")]
    [InlineData("#####")]
    public void Decode_GroupAbove32Bits_ThrowsEinval(string text)
    {
        var ex = Assert.Throws<ZmqException>(() => Z85.Decode(text));
        Assert.Equal(ZmqConstants.EINVAL, ex.ErrorNumber);
    }

    [Fact]
    public void Type_PublicSurface_Has2MembersAsInApiTable() => Assert.Equal(2, ApiSurface.CountPublicMembers(typeof(Z85)));
}
