using System.Buffers.Binary;
using System.Diagnostics;

namespace Managed.Zmq.Options;

/// <summary>
/// Z85 (RFC 32) for exactly one CURVE key: 32 bytes ↔ 40 characters.
/// </summary>
/// <remarks>
/// Kept here rather than reusing the public <c>Z85</c> class so that option validation allocates nothing,
/// throws nothing and has no dependency on another layer. Only key-sized input is handled.
/// </remarks>
internal static class CurveKeyText
{
    public const int KeyLength = 32;
    public const int TextLength = 40;

    /// <summary>RFC 32 §Formal Specification: the character for each base-85 digit 0–84.</summary>
    private static ReadOnlySpan<byte> Alphabet =>
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#"u8;

    /// <summary>
    /// Decodes 40 Z85 characters into a 32-byte key. Fails on a character outside the alphabet, or a five-character
    /// group worth more than 2^32−1, which no four bytes can encode.
    /// </summary>
    public static bool TryDecode(ReadOnlySpan<byte> text, Span<byte> key)
    {
        if (text.Length != TextLength || key.Length != KeyLength)
        {
            return false;
        }

        for (int group = 0; group < KeyLength / 4; group++)
        {
            ulong value = 0;
            for (int i = 0; i < 5; i++)
            {
                int digit = Alphabet.IndexOf(text[(group * 5) + i]);
                if (digit < 0)
                {
                    return false;
                }

                value = (value * 85) + (uint)digit;
            }

            if (value > uint.MaxValue)
            {
                return false;
            }

            // RFC 32: each group is an unsigned 32-bit integer in network byte order.
            BinaryPrimitives.WriteUInt32BigEndian(key.Slice(group * 4, 4), (uint)value);
        }

        return true;
    }

    /// <summary>Encodes a 32-byte key as 40 Z85 characters.</summary>
    public static void Encode(ReadOnlySpan<byte> key, Span<byte> text)
    {
        Debug.Assert(key.Length == KeyLength, "CURVE keys are 32 bytes.");
        Debug.Assert(text.Length >= TextLength, "The caller sizes the output for 40 characters.");

        for (int group = 0; group < KeyLength / 4; group++)
        {
            uint value = BinaryPrimitives.ReadUInt32BigEndian(key.Slice(group * 4, 4));
            for (int i = 4; i >= 0; i--)
            {
                text[(group * 5) + i] = Alphabet[(int)(value % 85)];
                value /= 85;
            }
        }
    }
}
