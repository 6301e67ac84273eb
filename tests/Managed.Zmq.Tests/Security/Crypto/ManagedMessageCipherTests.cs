using System.Buffers.Binary;
using System.Text;
using Managed.Zmq.Security.Crypto;

namespace Managed.Zmq.Tests.Security.Crypto;

/// <summary>
/// The per-direction MESSAGE cipher, which makes key stream for four nonces at a time: every box
/// must equal crypto_box_afternm under the full 24-octet nonce (prefix + short nonce), whatever
/// the order and spacing of the nonces.
/// </summary>
public sealed class ManagedMessageCipherTests
{
    private static readonly byte[] Prefix = Encoding.ASCII.GetBytes("CurveZMQMESSAGEC");
    private static readonly int[] Sizes = [0, 1, 63, 64, 95, 96, 97, 200, 1000];

    public static TheoryData<ulong[]> NonceSequences() => new()
    {
        { Enumerable.Range(1, 13).Select(i => (ulong)i).ToArray() },
        { [1, 2, 5, 6, 7, 8, 9, 13, 100, 101, 102, 103, 104] },
        { [0xFFFFFFFD, 0xFFFFFFFE, 0xFFFFFFFF, 0x100000000, 0x100000001, 0x100000002] },
        { [7, 8, 3, 4, 4000, 3999, 1] },
    };

    [Theory]
    [MemberData(nameof(NonceSequences))]
    public void SealThenOpen_AnyNoncesAndSizes_MatchTheFullNonceBox(ulong[] nonces)
    {
        byte[] key = RandomBytes(32, 1);
        using var sender = new ManagedMessageCipher(key, Prefix);
        using var receiver = new ManagedMessageCipher(key, Prefix);
        for (int i = 0; i < nonces.Length; i++)
        {
            byte[] shortNonce = ShortNonce(nonces[i]);
            byte[] message = RandomBytes(Sizes[i % Sizes.Length], i);
            byte[] expected = FullNonceBox(key, shortNonce, message);
            var box = new byte[message.Length + 16];
            var opened = new byte[message.Length];

            sender.Seal(shortNonce, message, box);

            Assert.Equal(Convert.ToHexString(expected), Convert.ToHexString(box));
            Assert.True(receiver.Open(shortNonce, box, opened));
            Assert.Equal(message, opened);
        }
    }

    [Fact]
    public void Open_SameNonceAgainOrAnEarlierOne_StillOpens()
    {
        byte[] key = RandomBytes(32, 2);
        byte[] message = RandomBytes(64, 3);
        using var receiver = new ManagedMessageCipher(key, Prefix);
        foreach (ulong nonce in new ulong[] { 5, 5, 3, 6, 5 })
        {
            byte[] shortNonce = ShortNonce(nonce);
            var opened = new byte[message.Length];

            Assert.True(receiver.Open(shortNonce, FullNonceBox(key, shortNonce, message), opened));
            Assert.Equal(message, opened);
        }
    }

    [Fact]
    public void Open_ForgedOrWrongNonce_FailsAndLeavesThePlaintextUntouched()
    {
        byte[] key = RandomBytes(32, 4);
        byte[] message = RandomBytes(40, 5);
        using var receiver = new ManagedMessageCipher(key, Prefix);
        byte[] box = FullNonceBox(key, ShortNonce(9), message);
        var opened = new byte[message.Length];

        Assert.False(receiver.Open(ShortNonce(10), box, opened));
        box[20] ^= 1;
        Assert.False(receiver.Open(ShortNonce(9), box, opened));
        Assert.All(opened, b => Assert.Equal(0, b));
        Assert.False(receiver.Open(ShortNonce(11), new byte[15], opened));
    }

    [Fact]
    public void Seal_InPlace_MatchesTheFullNonceBox()
    {
        byte[] key = RandomBytes(32, 6);
        byte[] message = RandomBytes(80, 7);
        using var sender = new ManagedMessageCipher(key, Prefix);
        var box = new byte[message.Length + 16];
        message.CopyTo(box, 16);

        sender.Seal(ShortNonce(1), box.AsSpan(16), box);

        Assert.Equal(Convert.ToHexString(FullNonceBox(key, ShortNonce(1), message)), Convert.ToHexString(box));
    }

    [Fact]
    public void SealOrOpen_AfterDispose_Throws()
    {
        var cipher = new ManagedMessageCipher(RandomBytes(32, 8), Prefix);
        cipher.Dispose();

        Assert.Throws<ObjectDisposedException>(() => cipher.Seal(ShortNonce(1), new byte[8], new byte[24]));
        Assert.Throws<ObjectDisposedException>(() => cipher.Open(ShortNonce(1), new byte[24], new byte[8]));
    }

    private static byte[] FullNonceBox(byte[] key, byte[] shortNonce, byte[] message)
    {
        var box = new byte[message.Length + 16];
        XSalsa20Poly1305.Seal(key, [.. Prefix, .. shortNonce], message, box);
        return box;
    }

    private static byte[] ShortNonce(ulong value)
    {
        var nonce = new byte[8];
        BinaryPrimitives.WriteUInt64BigEndian(nonce, value);
        return nonce;
    }

    private static byte[] RandomBytes(int length, int seed)
    {
        var bytes = new byte[length];
        new Random(seed).NextBytes(bytes);
        return bytes;
    }
}
