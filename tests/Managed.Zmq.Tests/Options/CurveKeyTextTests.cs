
using Managed.Zmq.Options;

namespace Managed.Zmq.Tests.Options;

/// <summary>The key-sized Z85 codec behind the CURVE options, against RFC 32 and the shared crypto vectors.</summary>
public sealed class CurveKeyTextTests
{
    // libzmq's documented CurveZMQ test client key pair (cross-checked with libsodium).
    public const string ClientPublicHex = "BB88471D65E2659B30C55A5321CEBB5AAB2B70A398645C26DCA2B2FCB43FC518";
    public const string ClientPublicZ85 = "Yne@$w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hID";
    public const string ClientSecretHex = "7BB864B489AFA3671FBE69101F94B38972F24816DFB01B51656B3FEC8DFD0888";
    public const string ClientSecretZ85 = "D:)Q[IlAW!ahhC2ac:9*A}h:p?([4%wOTJ%JR%cs";

    [Theory]
    [InlineData(ClientPublicHex, ClientPublicZ85)]
    [InlineData(ClientSecretHex, ClientSecretZ85)]
    [InlineData("0000000000000000000000000000000000000000000000000000000000000000", "0000000000000000000000000000000000000000")]
    [InlineData("864FD26FB559F75B864FD26FB559F75B864FD26FB559F75B864FD26FB559F75B", "HelloWorldHelloWorldHelloWorldHelloWorld")]
    [InlineData("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "%nSc0%nSc0%nSc0%nSc0%nSc0%nSc0%nSc0%nSc0")]
    public void EncodeAndTryDecode_KnownVector_RoundTrip(string hex, string z85)
    {
        byte[] key = Convert.FromHexString(hex);
        var text = new byte[CurveKeyText.TextLength];
        var decoded = new byte[CurveKeyText.KeyLength];

        CurveKeyText.Encode(key, text);

        Assert.Equal(z85, System.Text.Encoding.ASCII.GetString(text));
        Assert.True(CurveKeyText.TryDecode(text, decoded));
        Assert.Equal(key, decoded);
    }

    [Theory]
    [InlineData("Yne@$w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hI~")] // '~' is not in the alphabet
    [InlineData("Yne@$w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hI ")]
    [InlineData("Yne@$w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hI\"")]
    [InlineData("#####w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hID")] // group worth 85^5 - 1 > 2^32 - 1
    [InlineData("%nSc1w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hID")] // group worth exactly 2^32
    [InlineData("Yne@$w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hI")] // 39 characters
    public void TryDecode_InvalidText_ReturnsFalse(string z85)
    {
        Assert.False(CurveKeyText.TryDecode(System.Text.Encoding.Latin1.GetBytes(z85), new byte[CurveKeyText.KeyLength]));
    }
}
