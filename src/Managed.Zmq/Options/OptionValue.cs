using System.Runtime.InteropServices;
using System.Text;

namespace Managed.Zmq.Options;

/// <summary>
/// The byte layout of option values, shared by <see cref="SocketOptions"/> and the socket so both sides agree:
/// integers in host byte order (what a C caller passes to libzmq), strings as their bytes plus a NUL.
/// </summary>
internal static class OptionValue
{
    public static int ReadInt32(ReadOnlySpan<byte> value) => MemoryMarshal.Read<int>(value);

    public static long ReadInt64(ReadOnlySpan<byte> value) => MemoryMarshal.Read<long>(value);

    public static void WriteInt32(Span<byte> destination, int value) => MemoryMarshal.Write(destination, in value);

    public static void WriteInt64(Span<byte> destination, long value) => MemoryMarshal.Write(destination, in value);

    /// <summary>
    /// Writes a 4-byte value into a buffer of at least 4 bytes, zeroing the rest, and reports length 4.
    /// This is how Rcvmore, Fd, Events and Thread_Safe are read (as libzmq's zmq_getsockopt fills an int option: the value in the low bytes).
    /// </summary>
    public static int TryWriteInt32Widened(Span<byte> buffer, int value, out int length)
    {
        if (buffer.Length < sizeof(int))
        {
            length = 0;
            return OptionStatus.InvalidArgument;
        }

        WriteInt32(buffer, value);
        buffer.Slice(sizeof(int)).Clear();
        length = sizeof(int);
        return OptionStatus.Ok;
    }

    /// <summary>
    /// Writes text bytes followed by a NUL, zeroing the rest of the buffer; the length counts the NUL.
    /// A buffer without room for the NUL is EINVAL, as in libzmq.
    /// </summary>
    public static int TryWriteString(Span<byte> buffer, ReadOnlySpan<byte> text, out int length)
    {
        if (buffer.Length < text.Length + 1)
        {
            length = 0;
            return OptionStatus.InvalidArgument;
        }

        text.CopyTo(buffer);
        buffer.Slice(text.Length).Clear();
        length = text.Length + 1;
        return OptionStatus.Ok;
    }

    /// <summary>UTF-8 form of <see cref="TryWriteString(Span{byte}, ReadOnlySpan{byte}, out int)"/>, for Last_Endpoint.</summary>
    public static int TryWriteString(Span<byte> buffer, string text, out int length)
    {
        int byteCount = Encoding.UTF8.GetByteCount(text);
        if (buffer.Length < byteCount + 1)
        {
            length = 0;
            return OptionStatus.InvalidArgument;
        }

        int written = Encoding.UTF8.GetBytes(text, buffer);
        buffer.Slice(written).Clear();
        length = written + 1;
        return OptionStatus.Ok;
    }
}
