using System.Text;

namespace Managed.Zmq.Tests.Support;

/// <summary>Short conversions for test payloads.</summary>
internal static class Bytes
{
    public static byte[] Of(string text) => Encoding.UTF8.GetBytes(text);

    public static string Text(byte[] bytes) => Encoding.UTF8.GetString(bytes);

    /// <summary>A payload whose every byte depends on its position and <paramref name="seed"/>.</summary>
    public static byte[] Pattern(int length, int seed)
    {
        var data = new byte[length];
        for (int i = 0; i < length; i++)
        {
            data[i] = (byte)((i * 31) + seed);
        }

        return data;
    }
}
