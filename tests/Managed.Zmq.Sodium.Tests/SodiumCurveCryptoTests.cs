using Managed.Zmq.Security.Crypto;

namespace Managed.Zmq.Sodium.Tests;

/// <summary>
/// The libsodium-backed provider against RFC 7748 §6.1 and NaCl's published box vectors, and against the managed provider on random keys.
/// </summary>
public sealed class SodiumCurveCryptoTests
{
    private const string AliceSecret = "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a";
    private const string AlicePublic = "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a";
    private const string BobSecret = "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb";
    private const string BobPublic = "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f";

    /// <summary>NaCl's crypto_box_beforenm of Alice and Bob: HSalsa20 of the RFC 7748 shared secret.</summary>
    private const string BoxKey = "1b27556473e985d462cd51197a9a46c76009549eac6474f206c4ee0844f68389";

    private static readonly ICurveCryptoProvider Sodium = SodiumCurveCrypto.Instance;

    [Fact]
    public void DerivePublicKey_Rfc7748Section61_MatchesAliceAndBob()
    {
        var alice = new byte[32];
        var bob = new byte[32];

        Sodium.DerivePublicKey(Convert.FromHexString(AliceSecret), alice);
        Sodium.DerivePublicKey(Convert.FromHexString(BobSecret), bob);

        Assert.Equal(AlicePublic, Convert.ToHexStringLower(alice));
        Assert.Equal(BobPublic, Convert.ToHexStringLower(bob));
    }

    [Fact]
    public void BoxBeforeNm_NaClPair_IsTheBoxKeyFromEitherSide()
    {
        var fromAlice = new byte[32];
        var fromBob = new byte[32];

        Assert.True(Sodium.BoxBeforeNm(Convert.FromHexString(BobPublic), Convert.FromHexString(AliceSecret), fromAlice));
        Assert.True(Sodium.BoxBeforeNm(Convert.FromHexString(AlicePublic), Convert.FromHexString(BobSecret), fromBob));

        Assert.Equal(BoxKey, Convert.ToHexStringLower(fromAlice));
        Assert.Equal(BoxKey, Convert.ToHexStringLower(fromBob));
    }

    [Fact]
    public void KeyAgreement_RandomKeys_MatchesTheManagedProvider()
    {
        var random = new Random(25519);
        for (int i = 0; i < 50; i++)
        {
            var secret = new byte[32];
            var peerSecret = new byte[32];
            random.NextBytes(secret);
            random.NextBytes(peerSecret);
            var (sodiumPublic, managedPublic) = (new byte[32], new byte[32]);
            var peerPublic = new byte[32];
            ManagedCurveCrypto.Instance.DerivePublicKey(peerSecret, peerPublic);
            var (sodiumKey, managedKey) = (new byte[32], new byte[32]);

            Sodium.DerivePublicKey(secret, sodiumPublic);
            ManagedCurveCrypto.Instance.DerivePublicKey(secret, managedPublic);
            Assert.True(Sodium.BoxBeforeNm(peerPublic, secret, sodiumKey));
            Assert.True(ManagedCurveCrypto.Instance.BoxBeforeNm(peerPublic, secret, managedKey));

            Assert.Equal(managedPublic, sodiumPublic);
            Assert.Equal(managedKey, sodiumKey);
        }
    }

    [Theory]
    [InlineData("0000000000000000000000000000000000000000000000000000000000000000")]
    [InlineData("0100000000000000000000000000000000000000000000000000000000000000")]
    [InlineData("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800")]
    public void BoxBeforeNm_SmallOrderPublicKey_ReturnsFalseAndAZeroKey(string publicKey)
    {
        var key = Enumerable.Repeat((byte)0xAA, 32).ToArray();

        Assert.False(Sodium.BoxBeforeNm(Convert.FromHexString(publicKey), Convert.FromHexString(AliceSecret), key));
        Assert.All(key, b => Assert.Equal(0, b));
    }

    [Fact]
    public void SealAndOpen_AreTheManagedProvidersBoxes()
    {
        byte[] key = Convert.FromHexString(BoxKey);
        var nonce = new byte[24];
        byte[] message = "a message in a box"u8.ToArray();
        var box = new byte[message.Length + 16];
        var expected = new byte[message.Length + 16];
        var opened = new byte[message.Length];

        Sodium.SealAfterNm(key, nonce, message, box);
        ManagedCurveCrypto.Instance.SealAfterNm(key, nonce, message, expected);

        Assert.Equal(expected, box);
        Assert.True(Sodium.OpenAfterNm(key, nonce, box, opened));
        Assert.Equal(message, opened);
    }
}
