using System.Numerics;
using Managed.Zmq.Security.Crypto;

namespace Managed.Zmq.Tests.Security.Crypto;

/// <summary>Poly1305 against RFC 8439 §2.5.2 and Appendix A.3, NaCl's onetimeauth vector, and a big-integer reference.</summary>
public sealed class Poly1305Tests
{
    [Theory]
    // RFC 8439 §2.5.2.
    [InlineData("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b", "43727970746f6772617068696320466f72756d2052657365617263682047726f7570", "a8061dc1305136c6c22b8baf0c0127a9")]
    // RFC 8439 A.3 #1.
    [InlineData("0000000000000000000000000000000000000000000000000000000000000000", "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000", "00000000000000000000000000000000")]
    // RFC 8439 A.3 #4.
    [InlineData("1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0", "2754776173206272696c6c69672c20616e642074686520736c6974687920746f7665730a446964206779726520616e642067696d626c6520696e2074686520776162653a0a416c6c206d696d737920776572652074686520626f726f676f7665732c0a416e6420746865206d6f6d65207261746873206f757467726162652e", "4541669a7eaaee61e708dc7cbcc5eb62")]
    // RFC 8439 A.3 #5 to #11: the edge cases around 2^130 - 5.
    [InlineData("0200000000000000000000000000000000000000000000000000000000000000", "ffffffffffffffffffffffffffffffff", "03000000000000000000000000000000")]
    [InlineData("02000000000000000000000000000000ffffffffffffffffffffffffffffffff", "02000000000000000000000000000000", "03000000000000000000000000000000")]
    [InlineData("0100000000000000000000000000000000000000000000000000000000000000", "fffffffffffffffffffffffffffffffff0ffffffffffffffffffffffffffffff11000000000000000000000000000000", "05000000000000000000000000000000")]
    [InlineData("0100000000000000000000000000000000000000000000000000000000000000", "fffffffffffffffffffffffffffffffffbfefefefefefefefefefefefefefefe01010101010101010101010101010101", "00000000000000000000000000000000")]
    [InlineData("0200000000000000000000000000000000000000000000000000000000000000", "fdffffffffffffffffffffffffffffff", "faffffffffffffffffffffffffffffff")]
    [InlineData("0100000000000000040000000000000000000000000000000000000000000000", "e33594d7505e43b900000000000000003394d7505e4379cd01000000000000000000000000000000000000000000000001000000000000000000000000000000", "14000000000000005500000000000000")]
    [InlineData("0100000000000000040000000000000000000000000000000000000000000000", "e33594d7505e43b900000000000000003394d7505e4379cd010000000000000000000000000000000000000000000000", "13000000000000000000000000000000")]
    public void Compute_Rfc8439Vector_MatchesTag(string key, string message, string expected)
    {
        var tag = new byte[16];

        Poly1305.Compute(Convert.FromHexString(key), Convert.FromHexString(message), tag);

        Assert.Equal(expected, Convert.ToHexStringLower(tag));
    }

    [Fact]
    public void Compute_NaClOneTimeAuthVector_MatchesTag()
    {
        byte[] box = Convert.FromHexString(NaClVectors.Box);
        var tag = new byte[16];

        Poly1305.Compute(Convert.FromHexString(NaClVectors.OneTimeAuthKey), box.AsSpan(16), tag);

        Assert.Equal(Convert.ToHexString(box, 0, 16), Convert.ToHexString(tag));
        Assert.True(Poly1305.Verify(Convert.FromHexString(NaClVectors.OneTimeAuthKey), box.AsSpan(16), box.AsSpan(0, 16)));
    }

    [Fact]
    public void Update_InPieces_MatchesBigIntegerReference()
    {
        var random = new Random(1305);
        for (int trial = 0; trial < 200; trial++)
        {
            var key = new byte[32];
            random.NextBytes(key);
            if (trial % 10 == 0)
            {
                key.AsSpan().Fill(0xFF);
            }

            var message = new byte[random.Next(0, 200)];
            random.NextBytes(message);
            if (trial % 7 == 0)
            {
                message.AsSpan().Fill(0xFF);
            }

            var mac = new Poly1305(key);
            int offset = 0;
            while (offset < message.Length)
            {
                int take = Math.Min(random.Next(1, 40), message.Length - offset);
                mac.Update(message.AsSpan(offset, take));
                offset += take;
            }

            var tag = new byte[16];
            mac.Finish(tag);

            Assert.Equal(Convert.ToHexString(Reference(key, message)), Convert.ToHexString(tag));
        }
    }

    [Theory]
    [InlineData(256)]
    [InlineData(257)]
    [InlineData(319)]
    [InlineData(320)]
    [InlineData(1000)]
    [InlineData(4096)]
    [InlineData(65536 + 33)]
    public void Compute_LongMessages_MatchesBigIntegerReference(int length)
    {
        // Long enough for the four-lane vector path, with its scalar tail, whole and fed in pieces;
        // all-0xFF keys and messages push every limb to its largest value.
        var random = new Random(length);
        for (int trial = 0; trial < 6; trial++)
        {
            var key = new byte[32];
            var message = new byte[length];
            random.NextBytes(key);
            random.NextBytes(message);
            if (trial >= 4)
            {
                key.AsSpan().Fill(0xFF);
                message.AsSpan().Fill(0xFF);
            }

            var tag = new byte[16];
            Poly1305.Compute(key, message, tag);
            Assert.Equal(Convert.ToHexString(Reference(key, message)), Convert.ToHexString(tag));

            var mac = new Poly1305(key);
            int split = trial % 2 == 0 ? 17 : length / 2;
            mac.Update(message.AsSpan(0, split));
            mac.Update(message.AsSpan(split));
            mac.Finish(tag);
            Assert.Equal(Convert.ToHexString(Reference(key, message)), Convert.ToHexString(tag));
        }
    }

    [Fact]
    public void Verify_AnyTagBitFlipped_ReturnsFalse()
    {
        byte[] key = Convert.FromHexString(NaClVectors.OneTimeAuthKey);
        byte[] box = Convert.FromHexString(NaClVectors.Box);
        for (int bit = 0; bit < 128; bit++)
        {
            byte[] tag = box[..16];
            tag[bit / 8] ^= (byte)(1 << (bit % 8));
            Assert.False(Poly1305.Verify(key, box.AsSpan(16), tag));
        }
    }

    /// <summary>RFC 8439 §2.5.1 with arbitrary-precision integers.</summary>
    private static byte[] Reference(byte[] key, byte[] message)
    {
        BigInteger p = (BigInteger.One << 130) - 5;
        var clamp = new BigInteger(Convert.FromHexString("ffffff0ffcffff0ffcffff0ffcffff0f00"), isUnsigned: true, isBigEndian: false);
        BigInteger r = new BigInteger(key.AsSpan(0, 16), isUnsigned: true) & clamp;
        var s = new BigInteger(key.AsSpan(16, 16), isUnsigned: true);
        BigInteger accumulator = BigInteger.Zero;
        for (int i = 0; i < message.Length; i += 16)
        {
            int take = Math.Min(16, message.Length - i);
            var block = new byte[take + 1];
            message.AsSpan(i, take).CopyTo(block);
            block[take] = 1;
            accumulator = (accumulator + new BigInteger(block, isUnsigned: true)) * r % p;
        }

        BigInteger result = (accumulator + s) & ((BigInteger.One << 128) - 1);
        var tag = new byte[16];
        result.TryWriteBytes(tag, out _, isUnsigned: true);
        return tag;
    }
}
