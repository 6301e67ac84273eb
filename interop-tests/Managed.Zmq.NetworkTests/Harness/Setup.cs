namespace Managed.Zmq.NetworkTests.Harness;

/// <summary>Option sets the scenarios share, applied the same way to either kind of node.</summary>
internal static class Setup
{
    /// <summary>PING interval: short, so that a partition is noticed well within a test's deadline.</summary>
    public const int HeartbeatIvlMs = 100;

    /// <summary>
    /// Silence after which a side drops the connection (ZMTP heartbeat timeout): short enough that
    /// a partition is noticed within a second, long enough that a busy shared CI machine stalling a
    /// node for a moment does not look like one.
    /// </summary>
    public const int HeartbeatTimeoutMs = 800;

    /// <summary>Bounds a connect whose SYN gets no answer (a cut link), so reconnects keep trying.</summary>
    public const int ConnectTimeoutMs = 500;

    /// <summary>The TCP port every scenario listens on; each host has its own namespace and address.</summary>
    public const int Port = 5555;

    public static string Endpoint(Host host, int port = Port) => $"tcp://{host.Address}:{port}";

    /// <summary>Linger 0, heartbeats on, and quick reconnects: every socket of a partition scenario.</summary>
    public static void Resilient(Node node, string socket, bool heartbeats = true)
    {
        node.Option(socket, ZmqOption.Linger, 0);
        node.Option(socket, ZmqOption.ReconnectIvl, 100);
        node.Option(socket, ZmqOption.ConnectTimeout, ConnectTimeoutMs);
        if (heartbeats)
        {
            node.Option(socket, ZmqOption.HeartbeatIvl, HeartbeatIvlMs);
            node.Option(socket, ZmqOption.HeartbeatTimeout, HeartbeatTimeoutMs);
        }
    }

    /// <summary>CURVE keys for one server and its clients.</summary>
    public sealed class CurveKeys
    {
        public (string Public, string Secret) Server { get; } = Curve.GenerateKeypair();
        public (string Public, string Secret) Client { get; } = Curve.GenerateKeypair();

        public void MakeServer(Node node, string socket)
        {
            node.Option(socket, ZmqOption.CurveServer, 1);
            node.Option(socket, ZmqOption.CurveSecretKey, Server.Secret);
        }

        public void MakeClient(Node node, string socket)
        {
            node.Option(socket, ZmqOption.CurveServerKey, Server.Public);
            node.Option(socket, ZmqOption.CurvePublicKey, Client.Public);
            node.Option(socket, ZmqOption.CurveSecretKey, Client.Secret);
        }
    }

    /// <summary>Curve keys when <paramref name="curve"/> is set, else null (NULL mechanism).</summary>
    public static CurveKeys? Security(bool curve) => curve ? new CurveKeys() : null;
}
