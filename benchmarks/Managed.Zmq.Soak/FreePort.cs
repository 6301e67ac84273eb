using System.Net;
using System.Net.Sockets;

namespace Managed.Zmq.Soak;

/// <summary>A loopback port the OS says is free, so a restarting peer can bind the same one each time.</summary>
internal static class FreePort
{
    private static int s_last;

    /// <summary>A free port, never the same one twice in this process (two soaks must not share one).</summary>
    public static int Next()
    {
        int port;
        do
        {
            port = Probe();
        }
        while (port == Interlocked.Exchange(ref s_last, port));

        return port;
    }

    private static int Probe()
    {
        using var probe = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp);
        probe.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        return ((IPEndPoint)probe.LocalEndPoint!).Port;
    }
}
