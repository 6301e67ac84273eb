namespace Managed.Zmq.Perf;

/// <summary>
/// <c>remote_router_thr &lt;connect-to&gt; &lt;message-size&gt; &lt;message-count&gt;</c>: remote_thr for
/// ROUTER to ROUTER. A ROUTER with routing id "remote" and Router_Mandatory connects, retries
/// the first send every millisecond while the peer "local" is unknown (EHOSTUNREACH), then
/// sends [local][payload] messages and closes with the default linger.
/// </summary>
internal static class RemoteRouterThroughput
{
    public const string Name = "remote_router_thr";

    public static int Run(ReadOnlySpan<string> args)
    {
        if (!PerfArguments.TryParse(Name, "connect-to", "message-count", args, out PerfArguments a))
        {
            return 1;
        }

        using var context = new Context();
        using var router = new Socket(context, SocketType.Router);
        router.SetOption(SocketOption.Routing_Id, "remote"u8.ToArray());
        router.SetOption(SocketOption.Router_Mandatory, 1);
        router.Connect(a.Endpoint);

        ReadOnlySpan<byte> peer = "local"u8;
        ReadOnlySpan<byte> payload = new byte[a.MessageSize];
        for (int i = 0; i != a.Count; i++)
        {
            if (i == 0)
            {
                WaitForPeer(router, peer);
            }
            else
            {
                router.Send(peer, SendFlags.SendMore);
            }

            router.Send(payload, SendFlags.None);
        }

        return 0;
    }

    /// <summary>Sends the first id frame, retrying while the handshake has not named the peer yet.</summary>
    private static void WaitForPeer(Socket router, ReadOnlySpan<byte> peer)
    {
        while (true)
        {
            try
            {
                router.Send(peer, SendFlags.SendMore);
                return;
            }
            catch (ZmqException ex) when (ex.ErrorNumber == ZmqConstants.EHOSTUNREACH)
            {
                Thread.Sleep(1);
            }
        }
    }
}
