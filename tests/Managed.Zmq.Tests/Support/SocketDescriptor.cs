using System.Buffers.Binary;
using System.Net.Sockets;

namespace Managed.Zmq.Tests.Support;

/// <summary>
/// Reads a connection's kernel options from its descriptor (a monitor event's value, a transport's handle), through a
/// managed view that does not own it.
/// </summary>
internal static class SocketDescriptor
{
    /// <summary>An int-valued option, <paramref name="level"/> and <paramref name="name"/> as the kernel numbers them.</summary>
    public static int ReadInt32Option(int descriptor, int level, int name)
    {
        using var view = new System.Net.Sockets.Socket(new SafeSocketHandle(descriptor, ownsHandle: false));
        Span<byte> value = stackalloc byte[sizeof(int)];
        Assert.Equal(sizeof(int), view.GetRawSocketOption(level, name, value));
        return BinaryPrimitives.ReadInt32LittleEndian(value);
    }
}
