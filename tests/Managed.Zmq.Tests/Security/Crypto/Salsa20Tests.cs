using System.Security.Cryptography;
using Managed.Zmq.Security.Crypto;

namespace Managed.Zmq.Tests.Security.Crypto;

/// <summary>HSalsa20 and XSalsa20 against the vectors published with NaCl.</summary>
public sealed class Salsa20Tests
{
    [Fact]
    public void HSalsa20_SharedSecretUnderZeroInput_IsFirstKey()
    {
        var output = new byte[32];

        Salsa20.HSalsa20(Convert.FromHexString(NaClVectors.Shared), new byte[16], output);

        Assert.Equal(NaClVectors.FirstKey, Convert.ToHexStringLower(output));
    }

    [Fact]
    public void HSalsa20_FirstKeyUnderNoncePrefix_IsSecondKey()
    {
        var output = new byte[32];

        Salsa20.HSalsa20(Convert.FromHexString(NaClVectors.FirstKey), Convert.FromHexString(NaClVectors.Nonce).AsSpan(0, 16), output);

        Assert.Equal(NaClVectors.SecondKey, Convert.ToHexStringLower(output));
    }

    [Fact]
    public void XSalsa20Xor_FirstFourMebibytes_HashToTheNaClDigest()
    {
        var stream = new byte[4 * 1024 * 1024];

        Salsa20.XSalsa20Xor(Convert.FromHexString(NaClVectors.FirstKey), Convert.FromHexString(NaClVectors.Nonce), 0, stream, stream);

        Assert.Equal("662b9d0e3463029156069b12f918691a98f7dfb2ca0393c96bbfc6b1fbd630a2", Convert.ToHexStringLower(SHA256.HashData(stream)));
        Assert.Equal(NaClVectors.OneTimeAuthKey, Convert.ToHexStringLower(stream.AsSpan(0, 32)));
    }

    [Theory]
    [InlineData(1)]
    [InlineData(63)]
    [InlineData(64)]
    [InlineData(65)]
    [InlineData(255)]
    [InlineData(256)]
    [InlineData(257)]
    [InlineData(511)]
    [InlineData(512)]
    [InlineData(777)]
    [InlineData(1500)]
    [InlineData(1023)]
    [InlineData(1024)]
    [InlineData(1025)]
    [InlineData(2047)]
    [InlineData(3000)]
    public void XSalsa20Xor_AnyLengthAndStartBlock_MatchesBlockByBlockStream(int length)
    {
        // The vector paths (4, 8 and 16 blocks per call) must produce the same stream as the scalar one,
        // including from a non-zero start block and across the 2^32 counter boundary.
        byte[] key = Convert.FromHexString(NaClVectors.FirstKey);
        byte[] nonce = Convert.FromHexString(NaClVectors.Nonce);
        foreach (ulong start in new ulong[] { 0, 1, 0xFFFFFFFE })
        {
            var whole = new byte[length];
            Salsa20.XSalsa20Xor(key, nonce, start, whole, whole);

            var pieces = new byte[length];
            for (int offset = 0; offset < length; offset += 64)
            {
                int take = Math.Min(64, length - offset);
                Salsa20.XSalsa20Xor(key, nonce, start + (ulong)(offset / 64), pieces.AsSpan(offset, take), pieces.AsSpan(offset, take));
            }

            Assert.Equal(Convert.ToHexString(pieces), Convert.ToHexString(whole));
        }
    }

    [Theory]
    [InlineData(0, 1500, false)]
    [InlineData(0, 1500, true)]
    [InlineData(32, 65536, false)]
    [InlineData(32, 65536, true)]
    [InlineData(32, 4093, false)]
    [InlineData(0, 2049, true)]
    [InlineData(32, 2047, true)]
    [InlineData(64, 3000, false)]
    public void Salsa20Xor_MessageAfterSkippedOctets_IsTheMessageXoredWithTheStreamThatFollows(int skip, int length, bool inPlace)
    {
        // Whole batches XOR the message as the key stream leaves the vectors; the message must line
        // up with the stream after the skipped octets (the Poly1305 key of a box) however the batches
        // fall, in place or into another buffer.
        byte[] key = Convert.FromHexString(NaClVectors.FirstKey);
        byte[] nonce = Convert.FromHexString(NaClVectors.Nonce).AsSpan(16, 8).ToArray();
        var message = new byte[length];
        new Random(length + skip).NextBytes(message);

        var stream = new byte[skip + length + Salsa20.BlockSize];
        for (int block = 0; block * Salsa20.BlockSize < skip + length; block++)
        {
            Salsa20.KeyStream(key, nonce, (ulong)block, stream.AsSpan(block * Salsa20.BlockSize, Salsa20.BlockSize));
        }

        var expected = new byte[length];
        for (int i = 0; i < length; i++)
        {
            expected[i] = (byte)(message[i] ^ stream[skip + i]);
        }

        byte[] source = (byte[])message.Clone();
        byte[] output = inPlace ? source : new byte[length];
        var skipped = new byte[skip];
        Salsa20.Salsa20Xor(key, nonce, 0, skipped, source, output);

        Assert.Equal(Convert.ToHexString(expected), Convert.ToHexString(output));
        Assert.Equal(Convert.ToHexString(stream, 0, skip), Convert.ToHexString(skipped));
        if (!inPlace)
        {
            Assert.Equal(message, source);
        }
    }
}
