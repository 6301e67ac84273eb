using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;

namespace Managed.Zmq.Tests.Support;

/// <summary>
/// A loopback TCP port that refuses connections and that no other bind to port 0 on this machine is
/// given while the test process lives: a socket holds it bound and never listens. A probe port that is
/// released at once can be handed to another test, of this process or of the interop suite running
/// beside it, whose server then takes this test's reconnect attempts for a client of its own.
/// SO_REUSEADDR on the holder lets a test bind the same endpoint later (our listener sets it too).
/// </summary>
internal static class RefusedPort
{
    private const int SolSocket = 1;
    private const int SoReuseAddr = 2;

    private static readonly ConcurrentBag<System.Net.Sockets.Socket> s_held = [];

    public static int Take()
    {
        var holder = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp);
        holder.SetRawSocketOption(SolSocket, SoReuseAddr, BitConverter.GetBytes(1));
        holder.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        s_held.Add(holder);
        return ((IPEndPoint)holder.LocalEndPoint!).Port;
    }

    public static string TcpEndpoint() => $"tcp://127.0.0.1:{Take().ToString(System.Globalization.CultureInfo.InvariantCulture)}";
}
