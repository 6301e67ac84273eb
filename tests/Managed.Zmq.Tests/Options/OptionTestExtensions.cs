using System.Text;
using Managed.Zmq.Options;

namespace Managed.Zmq.Tests.Options;

/// <summary>Typed shorthands over the raw byte accessors, so tests read like the public API calls they stand for.</summary>
internal static class OptionTestExtensions
{
    public static int SetInt32(this SocketOptions options, int option, int value)
    {
        Span<byte> bytes = stackalloc byte[sizeof(int)];
        OptionValue.WriteInt32(bytes, value);
        return options.TrySet(option, bytes);
    }

    public static int SetInt64(this SocketOptions options, int option, long value)
    {
        Span<byte> bytes = stackalloc byte[sizeof(long)];
        OptionValue.WriteInt64(bytes, value);
        return options.TrySet(option, bytes);
    }

    /// <summary>Sets an integer option with the width the test table gives it.</summary>
    public static int SetInteger(this SocketOptions options, int option, int width, long value) =>
        width == sizeof(long) ? options.SetInt64(option, value) : options.SetInt32(option, checked((int)value));

    public static int SetText(this SocketOptions options, int option, string value) =>
        options.TrySet(option, Encoding.UTF8.GetBytes(value));

    /// <summary>Reads an integer option through a buffer of exactly <paramref name="width"/> bytes and asserts success.</summary>
    public static long GetInteger(this SocketOptions options, int option, int width)
    {
        Span<byte> buffer = stackalloc byte[width];
        Assert.Equal(OptionStatus.Ok, options.TryGet(option, buffer, out int length));
        Assert.Equal(width, length);
        return width == sizeof(long) ? OptionValue.ReadInt64(buffer) : OptionValue.ReadInt32(buffer);
    }

    public static int GetInt32(this SocketOptions options, int option) => (int)options.GetInteger(option, sizeof(int));

    /// <summary>Reads a string option the way the public GetOptionString does: through a 256-byte buffer, dropping the NUL.</summary>
    public static string GetText(this SocketOptions options, int option)
    {
        var buffer = new byte[256];
        Assert.Equal(OptionStatus.Ok, options.TryGet(option, buffer, out int length));
        Assert.True(length >= 1);
        Assert.Equal(0, buffer[length - 1]);
        return Encoding.UTF8.GetString(buffer, 0, length - 1);
    }

    public static byte[] GetBytes(this SocketOptions options, int option, int bufferLength = 256)
    {
        var buffer = new byte[bufferLength];
        Assert.Equal(OptionStatus.Ok, options.TryGet(option, buffer, out int length));
        return buffer.AsSpan(0, length).ToArray();
    }
}
