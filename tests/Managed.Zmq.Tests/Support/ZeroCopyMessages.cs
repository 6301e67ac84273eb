using System.Runtime.InteropServices;

namespace Managed.Zmq.Tests.Support;

/// <summary>Zero-copy messages over native copies of test bytes, for tests that count their free callbacks.</summary>
internal static unsafe class ZeroCopyMessages
{
    /// <summary>
    /// A zero-copy <see cref="Message"/> over a native copy of <paramref name="bytes"/>; its free callback frees the
    /// copy, then calls <paramref name="freed"/>.
    /// </summary>
    public static Message CopyOf(ReadOnlySpan<byte> bytes, Action freed)
    {
        nint memory = (nint)NativeMemory.Alloc((nuint)Math.Max(bytes.Length, 1));
        bytes.CopyTo(new Span<byte>((void*)memory, bytes.Length));
        return new Message(memory, bytes.Length, data =>
        {
            NativeMemory.Free((void*)data);
            freed();
        });
    }
}
