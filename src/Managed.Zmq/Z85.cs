using Managed.Zmq.Internal;

namespace Managed.Zmq;

/// <summary>Z85 encoding (ZeroMQ RFC 32): 4 bytes as 5 printable characters, big-endian.</summary>
public static class Z85
{
    private const int Base = 85;
    private const byte Invalid = 0xFF;

    /// <summary>The RFC 32 alphabet, indexed by digit value.</summary>
    private static ReadOnlySpan<byte> Alphabet =>
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"u8;

    /// <summary>Digit value of each ASCII character, <see cref="Invalid"/> for characters outside the alphabet.</summary>
    private static readonly byte[] s_digits = BuildDigits();

    /// <summary>Encodes <paramref name="data"/> as Z85 text.</summary>
    /// <param name="data">The bytes to encode; the length must be a multiple of 4.</param>
    /// <returns>The text, 5 characters per 4 bytes; empty for empty input.</returns>
    /// <exception cref="ArgumentException">The length of <paramref name="data"/> is not a multiple of 4.</exception>
    public static string Encode(ReadOnlySpan<byte> data)
    {
        if (data.Length % 4 != 0)
        {
            ThrowHelper.ThrowArgumentException("Data length must be divisible by 4", nameof(data));
        }

        if (data.IsEmpty)
        {
            return string.Empty;
        }

        // string.Create writes straight into the result, so nothing proportional to the input lands on the stack.
        return string.Create(data.Length / 4 * 5, data, static (chars, source) =>
        {
            ReadOnlySpan<byte> alphabet = Alphabet;
            int c = 0;
            for (int i = 0; i < source.Length; i += 4)
            {
                uint value = (uint)(source[i] << 24 | source[i + 1] << 16 | source[i + 2] << 8 | source[i + 3]);
                for (int k = 4; k >= 0; k--)
                {
                    chars[c + k] = (char)alphabet[(int)(value % Base)];
                    value /= Base;
                }

                c += 5;
            }
        });
    }

    /// <summary>Decodes Z85 text.</summary>
    /// <param name="encoded">The text; the length must be a multiple of 5.</param>
    /// <returns>The bytes, 4 per 5 characters; empty for empty text.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="encoded"/> is null.</exception>
    /// <exception cref="ArgumentException">The length of <paramref name="encoded"/> is not a multiple of 5.</exception>
    /// <exception cref="ZmqException">EINVAL: a character is outside the alphabet, or a group exceeds 2^32 - 1.</exception>
    public static byte[] Decode(string encoded)
    {
        if (encoded is null)
        {
            ThrowHelper.ThrowArgumentNullException(nameof(encoded));
        }

        if (encoded.Length % 5 != 0)
        {
            ThrowHelper.ThrowArgumentException("Encoded string length must be divisible by 5", nameof(encoded));
        }

        if (encoded.Length == 0)
        {
            return [];
        }

        byte[] digits = s_digits;
        byte[] result = new byte[encoded.Length / 5 * 4];
        int o = 0;
        for (int i = 0; i < encoded.Length; i += 5)
        {
            ulong value = 0;
            for (int k = 0; k < 5; k++)
            {
                char ch = encoded[i + k];
                byte digit = ch < digits.Length ? digits[ch] : Invalid;
                if (digit == Invalid)
                {
                    ThrowHelper.ThrowZmqException(ZmqConstants.EINVAL);
                }

                value = value * Base + digit;
            }

            // 85^5 exceeds 2^32, so "#####" and friends would silently wrap; RFC 32 groups are 32-bit values.
            if (value > uint.MaxValue)
            {
                ThrowHelper.ThrowZmqException(ZmqConstants.EINVAL);
            }

            result[o] = (byte)(value >> 24);
            result[o + 1] = (byte)(value >> 16);
            result[o + 2] = (byte)(value >> 8);
            result[o + 3] = (byte)value;
            o += 4;
        }

        return result;
    }

    private static byte[] BuildDigits()
    {
        byte[] digits = new byte[128];
        digits.AsSpan().Fill(Invalid);
        ReadOnlySpan<byte> alphabet = Alphabet;
        for (int i = 0; i < alphabet.Length; i++)
        {
            digits[alphabet[i]] = (byte)i;
        }

        return digits;
    }
}
