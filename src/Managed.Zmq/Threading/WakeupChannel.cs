using System.Net.Sockets;

namespace Managed.Zmq.Threading;

/// <summary>
/// Interrupts a thread blocked in <see cref="System.Net.Sockets.Socket.Select(System.Collections.IList?, System.Collections.IList?, System.Collections.IList?, int)"/>: a connected pair of Unix-domain
/// sockets, one per I/O thread and one per thread that waits on a read turn (<see cref="InterruptibleWait"/>), not
/// per socket (NetMQ's per-socket loopback pairs exhausted ports). A byte written to one end makes the other readable.
/// </summary>
internal sealed class WakeupChannel : IDisposable
{
    private readonly System.Net.Sockets.Socket _reader;
    private readonly System.Net.Sockets.Socket _writer;
    private readonly byte[] _drain = new byte[64];

    public WakeupChannel()
    {
        string name = "managed-zmq-wake-" + Guid.NewGuid().ToString("N");
        string? path = null;
        UnixDomainSocketEndPoint endPoint;
        if (OperatingSystem.IsLinux())
        {
            // Linux's abstract namespace: no file to create or clean up.
            endPoint = new UnixDomainSocketEndPoint("\0" + name);
        }
        else
        {
            path = Path.Combine(Path.GetTempPath(), name);
            endPoint = new UnixDomainSocketEndPoint(path);
        }

        using var listener = new System.Net.Sockets.Socket(AddressFamily.Unix, System.Net.Sockets.SocketType.Stream, ProtocolType.Unspecified);
        listener.Bind(endPoint);
        listener.Listen(1);
        _writer = new System.Net.Sockets.Socket(AddressFamily.Unix, System.Net.Sockets.SocketType.Stream, ProtocolType.Unspecified);
        _writer.Connect(endPoint);
        _reader = listener.Accept();
        if (path is not null)
        {
            File.Delete(path);
        }

        _reader.Blocking = false;
        _writer.Blocking = false;
    }

    /// <summary>The end the waiting thread watches for readability.</summary>
    public System.Net.Sockets.Socket Reader => _reader;

    /// <summary>Makes <see cref="Reader"/> readable. Any thread.</summary>
    public void Signal()
    {
        Span<byte> one = [1];
        // A full buffer means a wake-up is already pending: nothing more to do.
        _writer.Send(one, SocketFlags.None, out _);
    }

    /// <summary>Consumes pending wake-ups. The waiting thread.</summary>
    public void Drain()
    {
        // A short read means nothing is left: no second call just to hear "would block".
        while (_reader.Receive(_drain, SocketFlags.None, out var error) == _drain.Length && error == SocketError.Success)
        {
        }
    }

    public void Dispose()
    {
        _reader.Dispose();
        _writer.Dispose();
    }
}
