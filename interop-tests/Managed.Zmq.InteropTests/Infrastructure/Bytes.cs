using System.Text;

namespace Managed.Zmq.InteropTests.Infrastructure;

internal static class Bytes
{
    public static byte[] Of(string text) => Encoding.UTF8.GetBytes(text);

    public static string Text(byte[] frame) => Encoding.UTF8.GetString(frame);

    /// <summary>A deterministic, non-repeating-looking payload, so shifted or truncated data is caught.</summary>
    public static byte[] Pattern(int size, int seed = 1)
    {
        var data = new byte[size];
        uint x = (uint)seed * 2654435761u + 1;
        for (var i = 0; i < size; i++)
        {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            data[i] = (byte)x;
        }

        return data;
    }

    /// <summary>Prefix byte + topic: the XSUB/XPUB subscription message (0x01 subscribe, 0x00 cancel).</summary>
    public static byte[] Subscription(bool subscribe, byte[] topic) => [subscribe ? (byte)1 : (byte)0, .. topic];

    public static byte[] Subscription(bool subscribe, string topic) => Subscription(subscribe, Of(topic));

    /// <summary>Compares whole messages frame by frame with a short, readable failure.</summary>
    public static void Equal(byte[][] expected, byte[][]? actual, string context)
    {
        Assert.True(actual is not null, $"{context}: no message arrived.");
        Assert.True(expected.Length == actual!.Length,
            $"{context}: expected {expected.Length} frames, got {actual.Length} (sizes {string.Join(",", actual.Select(f => f.Length))}).");
        for (var i = 0; i < expected.Length; i++)
        {
            var e = expected[i];
            var a = actual[i];
            Assert.True(e.Length == a.Length, $"{context}: frame {i} has {a.Length} bytes, expected {e.Length}.");
            var diff = e.AsSpan().CommonPrefixLength(a);
            Assert.True(diff == e.Length, $"{context}: frame {i} differs at byte {diff} of {e.Length}.");
        }
    }
}
