namespace Managed.Zmq.Tests.Wire.Support;

/// <summary>
/// Feeds a decode vector to a decoder split at every byte offset, the way octets trickle in from
/// a socket: every prefix shorter than the needed length must give the "pending" answer, and
/// every prefix from the needed length on must give exactly the whole input's answer.
/// </summary>
internal static class SplitFeed
{
    /// <summary>Decodes a prefix of the input into a comparable, printable result.</summary>
    public delegate T Decoder<T>(ReadOnlySpan<byte> received);

    /// <returns>The result for the whole input, for further assertions.</returns>
    public static T AssertEveryPrefix<T>(byte[] whole, int neededLength, T pending, Decoder<T> decode)
    {
        Assert.InRange(neededLength, 0, whole.Length);
        T expected = decode(whole);
        Assert.NotEqual(pending, expected);

        for (int k = 0; k <= whole.Length; k++)
        {
            // A fresh array per prefix, so a decoder cannot see octets past the cut.
            byte[] prefix = whole.AsSpan(0, k).ToArray();
            T actual = decode(prefix);
            if (k < neededLength)
            {
                Assert.True(Equals(pending, actual), $"prefix {k}/{whole.Length}: expected {pending}, got {actual}");
            }
            else
            {
                Assert.True(Equals(expected, actual), $"prefix {k}/{whole.Length}: expected {expected}, got {actual}");
            }
        }

        return expected;
    }

    /// <summary>The common case: the decoder needs the whole vector.</summary>
    public static T AssertEveryPrefix<T>(byte[] whole, T pending, Decoder<T> decode) =>
        AssertEveryPrefix(whole, whole.Length, pending, decode);
}
