using System.Net.Sockets;

namespace Managed.Zmq.Transports;

/// <summary>
/// Corking a TCP connection while the write loop sends one large frame after another (<see cref="IByteTransport.SetCorked"/>).
/// A frame of 64 KiB with its header is a few octets more than a loopback segment holds, and with TCP_NODELAY each
/// send ends in a segment of those few octets, which costs the sender as much as a full one; corked, the next frame
/// fills it (docs/ARCHITECTURE.md, section 3, "Corked while large frames queue").
/// </summary>
internal sealed partial class ReactorSocketTransport
{
    private static readonly byte[] s_corkOn = BitConverter.GetBytes(1);
    private static readonly byte[] s_corkOff = BitConverter.GetBytes(0);

    /// <summary>A TCP socket on Linux, where TCP_CORK exists, and no attempt to set it has failed.</summary>
    private bool _corkable;

    /// <summary>TCP_CORK is set (write loop only, like every call that changes it).</summary>
    private bool _corked;

    /// <summary>Times TCP_CORK was set or cleared so far (a test's measure, as <see cref="SendCalls"/> is).</summary>
    internal int CorkChanges { get; private set; }

    /// <summary>Bytes the write loop's sends gave the kernel while it was corked (a test's measure; write loop only).</summary>
    internal long CorkedBytes { get; private set; }

    /// <summary>Whether <paramref name="socket"/> can be corked: TCP over IPv4 or IPv6, on Linux.</summary>
    private static bool IsCorkable(System.Net.Sockets.Socket socket)
        => OperatingSystem.IsLinux() && socket.SocketType == System.Net.Sockets.SocketType.Stream
            && socket.AddressFamily is AddressFamily.InterNetwork or AddressFamily.InterNetworkV6;

    public bool SetCorked(bool corked)
    {
        if (corked == _corked || !_corkable || _disposed)
        {
            return _corked;
        }

        try
        {
            _socket.SetRawSocketOption(LinuxSocketOptions.IpProtoTcp, LinuxSocketOptions.TcpCork, corked ? s_corkOn : s_corkOff);
            _corked = corked;
            CorkChanges++;
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException)
        {
            // A connection being torn down: its bytes are lost anyway, and nothing here is worth trying again. A failed
            // uncork leaves _corked set: the socket is closing, and its close sends what the kernel held.
            _corkable = false;
        }

        return _corked;
    }
}
