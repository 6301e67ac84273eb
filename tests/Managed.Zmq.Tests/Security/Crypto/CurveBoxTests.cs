using Managed.Zmq.Security.Crypto;

namespace Managed.Zmq.Tests.Security.Crypto;

/// <summary>crypto_box_beforenm / afternm through the managed provider, against the NaCl box vectors.</summary>
public sealed class CurveBoxTests
{
    private static readonly ICurveCryptoProvider s_crypto = ManagedCurveCrypto.Instance;

    [Fact]
    public void BoxBeforeNm_NaClPair_IsFirstKeyFromEitherSide()
    {
        var fromAlice = new byte[32];
        var fromBob = new byte[32];

        Assert.True(s_crypto.BoxBeforeNm(Convert.FromHexString(NaClVectors.BobPublic), Convert.FromHexString(NaClVectors.AliceSecret), fromAlice));
        Assert.True(s_crypto.BoxBeforeNm(Convert.FromHexString(NaClVectors.AlicePublic), Convert.FromHexString(NaClVectors.BobSecret), fromBob));

        Assert.Equal(NaClVectors.FirstKey, Convert.ToHexStringLower(fromAlice));
        Assert.Equal(NaClVectors.FirstKey, Convert.ToHexStringLower(fromBob));
    }

    [Fact]
    public void BoxBeforeNm_CurveZmqTestKeys_MatchesLibsodium()
    {
        var clientSide = new byte[32];
        var serverSide = new byte[32];

        Assert.True(s_crypto.BoxBeforeNm(CurveTestKeys.ServerPublic, CurveTestKeys.ClientSecret, clientSide));
        Assert.True(s_crypto.BoxBeforeNm(CurveTestKeys.ClientPublic, CurveTestKeys.ServerSecret, serverSide));

        Assert.Equal("0e8790cb0dc8703af2533cc8594eecfbf62ca560a66ebee1259cc0a30435c6f3", Convert.ToHexStringLower(clientSide));
        Assert.Equal(clientSide, serverSide);
    }

    [Theory]
    [InlineData("0000000000000000000000000000000000000000000000000000000000000000")]
    [InlineData("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800")]
    public void BoxBeforeNm_SmallOrderPublicKey_ReturnsFalseAndZeroKey(string publicKey)
    {
        var key = new byte[32];
        key.AsSpan().Fill(0xAA);

        Assert.False(s_crypto.BoxBeforeNm(Convert.FromHexString(publicKey), CurveTestKeys.ClientSecret, key));
        Assert.All(key, b => Assert.Equal(0, b));
    }

    [Fact]
    public void SealAfterNm_NaClBoxVector_MatchesMacAndCiphertext()
    {
        byte[] message = Convert.FromHexString(NaClVectors.Message);
        var box = new byte[message.Length + 16];

        s_crypto.SealAfterNm(Convert.FromHexString(NaClVectors.FirstKey), Convert.FromHexString(NaClVectors.Nonce), message, box);

        Assert.Equal(NaClVectors.Box, Convert.ToHexStringLower(box));
    }

    [Fact]
    public void SealAfterNm_InPlace_MatchesVector()
    {
        byte[] box = new byte[16 + 131];
        Convert.FromHexString(NaClVectors.Message).CopyTo(box, 16);

        s_crypto.SealAfterNm(Convert.FromHexString(NaClVectors.FirstKey), Convert.FromHexString(NaClVectors.Nonce), box.AsSpan(16), box);

        Assert.Equal(NaClVectors.Box, Convert.ToHexStringLower(box));
    }

    [Fact]
    public void OpenAfterNm_NaClBoxVector_RecoversMessage()
    {
        byte[] box = Convert.FromHexString(NaClVectors.Box);
        var message = new byte[box.Length - 16];

        Assert.True(s_crypto.OpenAfterNm(Convert.FromHexString(NaClVectors.FirstKey), Convert.FromHexString(NaClVectors.Nonce), box, message));

        Assert.Equal(NaClVectors.Message, Convert.ToHexStringLower(message));
    }

    [Fact]
    public void OpenAfterNm_InPlace_RecoversMessage()
    {
        byte[] box = Convert.FromHexString(NaClVectors.Box);

        Assert.True(s_crypto.OpenAfterNm(Convert.FromHexString(NaClVectors.FirstKey), Convert.FromHexString(NaClVectors.Nonce), box, box.AsSpan(16)));

        Assert.Equal(NaClVectors.Message, Convert.ToHexStringLower(box.AsSpan(16)));
    }

    [Fact]
    public void OpenAfterNm_AnyBitFlipped_FailsAndLeavesOutputUntouched()
    {
        byte[] key = Convert.FromHexString(NaClVectors.FirstKey);
        byte[] nonce = Convert.FromHexString(NaClVectors.Nonce);
        byte[] original = Convert.FromHexString(NaClVectors.Box);
        for (int bit = 0; bit < original.Length * 8; bit += 7)
        {
            byte[] box = (byte[])original.Clone();
            box[bit / 8] ^= (byte)(1 << (bit % 8));
            var message = new byte[box.Length - 16];
            message.AsSpan().Fill(0x5A);

            Assert.False(s_crypto.OpenAfterNm(key, nonce, box, message));
            Assert.All(message, b => Assert.Equal(0x5A, b));
        }
    }

    [Fact]
    public void OpenAfterNm_WrongNonceOrShortBox_Fails()
    {
        byte[] key = Convert.FromHexString(NaClVectors.FirstKey);
        byte[] nonce = Convert.FromHexString(NaClVectors.Nonce);
        nonce[23] ^= 1;
        byte[] box = Convert.FromHexString(NaClVectors.Box);

        Assert.False(s_crypto.OpenAfterNm(key, nonce, box, new byte[box.Length]));
        Assert.False(s_crypto.OpenAfterNm(key, nonce, box.AsSpan(0, 15), new byte[16]));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(31)]
    [InlineData(32)]
    [InlineData(33)]
    [InlineData(1000)]
    [InlineData(70000)]
    public void SealAfterNm_ThenOpen_RoundTripsAnyLength(int length)
    {
        var key = new byte[32];
        var nonce = new byte[24];
        var message = new byte[length];
        new Random(length).NextBytes(message);
        new Random(7).NextBytes(key);
        var box = new byte[length + 16];
        var opened = new byte[length];

        s_crypto.SealAfterNm(key, nonce, message, box);

        Assert.True(s_crypto.OpenAfterNm(key, nonce, box, opened));
        Assert.Equal(message, opened);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(31)]
    [InlineData(32)]
    [InlineData(33)]
    [InlineData(95)]
    [InlineData(96)]
    [InlineData(97)]
    [InlineData(223)]
    [InlineData(224)]
    [InlineData(225)]
    [InlineData(481)]
    [InlineData(993)]
    [InlineData(2000)]
    public void SealAfterNm_AnyLength_MatchesTheStreamTakenBlockByBlock(int length)
    {
        // Seal and Open take their key stream in batches whose size depends on the length (one
        // pass from block 0, or block 0 first); the reference is the scalar stream, 64 octets at a time.
        var key = new byte[32];
        var nonce = new byte[24];
        var message = new byte[length];
        new Random(length).NextBytes(message);
        new Random(8).NextBytes(key);
        new Random(9).NextBytes(nonce);
        var stream = new byte[32 + length];
        for (int offset = 0; offset < stream.Length; offset += 64)
        {
            int take = Math.Min(64, stream.Length - offset);
            Salsa20.XSalsa20Xor(key, nonce, (ulong)(offset / 64), stream.AsSpan(offset, take), stream.AsSpan(offset, take));
        }

        var expected = new byte[16 + length];
        for (int i = 0; i < length; i++)
        {
            expected[16 + i] = (byte)(message[i] ^ stream[32 + i]);
        }

        Poly1305.Compute(stream.AsSpan(0, 32), expected.AsSpan(16), expected.AsSpan(0, 16));
        var box = new byte[16 + length];
        var opened = new byte[length];

        s_crypto.SealAfterNm(key, nonce, message, box);

        Assert.Equal(Convert.ToHexString(expected), Convert.ToHexString(box));
        Assert.True(s_crypto.OpenAfterNm(key, nonce, box, opened));
        Assert.Equal(message, opened);
    }
}
