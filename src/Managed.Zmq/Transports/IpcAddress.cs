using System.Net;
using System.Net.Sockets;

namespace Managed.Zmq.Transports;

/// <summary>
/// <c>ipc://path</c> over a real Unix-domain socket, so libzmq processes on the same host can talk
/// to us: absolute and relative paths, <c>@name</c> for Linux's abstract namespace, and <c>*</c> for a
/// generated path.
/// </summary>
internal sealed class IpcAddress : TransportAddress
{
    public string Path { get; private init; } = string.Empty;

    public override AddressFamily AddressFamily => AddressFamily.Unix;

    public override ProtocolType ProtocolType => ProtocolType.Unspecified;

    public bool IsAbstract => Path.StartsWith('@');

    /// <summary>
    /// sizeof(sockaddr_un.sun_path): a path, with its terminating NUL, fits in this many octets (108 on Linux and
    /// Windows, 104 on macOS and the BSDs). libzmq refuses a longer one with ENAMETOOLONG, at Bind and at Connect; an
    /// abstract name's '@' counts as the NUL it becomes.
    /// </summary>
    private static readonly int SunPathLength = OperatingSystem.IsLinux() || OperatingSystem.IsWindows() ? 108 : 104;

    /// <summary>Parses the part after <c>ipc://</c>; returns 0, EINVAL (empty, or <c>@</c> alone) or ENAMETOOLONG.</summary>
    public static int TryParse(string original, string rest, bool forBind, out IpcAddress? address)
    {
        address = null;
        if (rest.Length == 0 || rest == "@")
        {
            return ZmqConstants.EINVAL;
        }

        if (System.Text.Encoding.UTF8.GetByteCount(rest) >= SunPathLength)
        {
            return ZmqConstants.ENAMETOOLONG;
        }

        string path = rest;
        if (rest == "*")
        {
            if (!forBind)
            {
                return ZmqConstants.EINVAL;
            }

            path = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "managed-zmq-" + Guid.NewGuid().ToString("N")[..12]);
        }

        address = new IpcAddress { Original = original, Path = path };
        return 0;
    }

    public EndPoint EndPoint => IsAbstract
        ? new UnixDomainSocketEndPoint("\0" + Path[1..])
        : new UnixDomainSocketEndPoint(Path);

    public override ValueTask<EndPoint> ResolveAsync(CancellationToken cancellationToken) => ValueTask.FromResult(EndPoint);

    public override EndPoint GetBindEndPoint() => EndPoint;

    public override string FormatBound(EndPoint boundEndPoint) => "ipc://" + Path;
}
