using System.Net;
using System.Net.Sockets;

namespace Managed.Zmq.Soak;

/// <summary>A loopback port the OS says is free, so a restarting peer can bind the same one each time.</summary>
internal static class FreePort
{
    public static int Next()
    {
        using var probe = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp);
        probe.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        return ((IPEndPoint)probe.LocalEndPoint!).Port;
    }
}
