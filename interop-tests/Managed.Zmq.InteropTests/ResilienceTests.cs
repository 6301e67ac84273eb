using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests;

/// <summary>Connections that outlive trouble: heartbeats (PING/PONG) and reconnects, both ways.</summary>
public sealed class ResilienceTests
{
    public static TheoryData<Topology> Topologies => Cases.Topologies();

    public enum Pinger
    {
        Managed,
        Native,
        Both,
    }

    public static TheoryData<Topology, Pinger> HeartbeatCases
    {
        get
        {
            var data = new TheoryData<Topology, Pinger>();
            foreach (var topology in Enum.GetValues<Topology>())
                foreach (var pinger in Enum.GetValues<Pinger>())
                    data.Add(topology, pinger);
            return data;
        }
    }

    [Theory, MemberData(nameof(HeartbeatCases))]
    public Task Heartbeat_PingEvery50Ms_IdleConnectionSurvives(Topology topology, Pinger pinger) => Deadline.Run(() =>
    {
        // A pinging libzmq drops a peer that sends nothing within HEARTBEAT_TIMEOUT of its PING, so an
        // idle connection survives only if we answer with PONG; a pinging Managed.Zmq must send PINGs
        // libzmq accepts and must not drop libzmq, which answers them.
        static void Heartbeats(IEnd end)
        {
            end.SetOption(LibZmq.ZMQ_HEARTBEAT_IVL, 50);
            end.SetOption(LibZmq.ZMQ_HEARTBEAT_TIMEOUT, 200);
            end.SetOption(LibZmq.ZMQ_HEARTBEAT_TTL, 1000);
        }

        NativeSocket? monitor = null;
        using var link = new Link(topology, SocketType.Dealer, SocketType.Dealer,
            configureOurs: pinger is Pinger.Managed or Pinger.Both ? Heartbeats : null,
            configureTheirs: end =>
            {
                if (pinger is Pinger.Native or Pinger.Both)
                    Heartbeats(end);
                // Before bind/connect, or the handshake event may come before anyone listens.
                monitor = ((NativeSocket)end).Monitor(LibZmq.ZMQ_EVENT_HANDSHAKE_SUCCEEDED | LibZmq.ZMQ_EVENT_DISCONNECTED);
            });
        using var monitorSocket = monitor!;

        Transfer.Deliver(link.Ours, link.Theirs, [Bytes.Of("before")]);
        Assert.Equal(LibZmq.ZMQ_EVENT_HANDSHAKE_SUCCEEDED, monitorSocket.NextEvent(Timeouts.Io));

        // Twelve heartbeat intervals, three timeouts: waiting for a disconnect event that must not come.
        var disconnected = monitorSocket.NextEvent(TimeSpan.FromMilliseconds(600));
        Assert.True(disconnected is null, $"libzmq saw the idle connection drop (event {disconnected}).");

        Transfer.Deliver(link.Ours, link.Theirs, [Bytes.Of("after")]);
        Transfer.Deliver(link.Theirs, link.Ours, [Bytes.Of("back")]);
    });

    [Fact]
    public Task Reconnect_LibzmqPeerRebinds_ManagedPushReconnectsAndDelivers() => Deadline.Run(() =>
    {
        using var native = new NativeContext();
        using var ours = new ManagedPeer();
        using var push = ours.Socket(SocketType.Push);
        push.SetOption(LibZmq.ZMQ_RECONNECT_IVL, 20);

        var pull = native.Socket(SocketType.Pull);
        string endpoint;
        try
        {
            endpoint = pull.BindEphemeral();
            push.Connect(endpoint);
            Transfer.Deliver(push, pull, [Bytes.Of("first")]);
        }
        finally
        {
            pull.Dispose();
        }

        // libzmq closes its listener asynchronously, so the port may still be busy for a moment.
        using var again = native.Socket(SocketType.Pull);
        Deadline.RetryUntil(() => TryBind(again, endpoint), $"{again.Name} to bind {endpoint} again");
        ProbeUntilDelivered(push, again);
    });

    [Fact]
    public Task Reconnect_ManagedPeerRebinds_LibzmqPushReconnectsAndDelivers() => Deadline.Run(() =>
    {
        using var native = new NativeContext();
        using var ours = new ManagedPeer();
        using var push = native.Socket(SocketType.Push);
        push.SetOption(LibZmq.ZMQ_RECONNECT_IVL, 20);

        var pull = ours.Socket(SocketType.Pull);
        string endpoint;
        try
        {
            endpoint = pull.BindEphemeral();
            push.Connect(endpoint);
            Transfer.Deliver(push, pull, [Bytes.Of("first")]);
        }
        finally
        {
            pull.Dispose();
        }

        using var again = ours.Socket(SocketType.Pull);
        Deadline.RetryUntil(() => TryBind(again, endpoint), $"{again.Name} to bind {endpoint} again");
        ProbeUntilDelivered(push, again);
    });

    private static bool TryBind(IEnd end, string endpoint)
    {
        try
        {
            if (end is NativeSocket native)
                native.Bind(endpoint);
            else
                ((ManagedEnd)end).Socket.Bind(endpoint);
            return true;
        }
        catch (Exception e) when (e is ZmqException { ErrorNumber: ZmqConstants.EADDRINUSE } or NativeZmqException { Errno: 98 })
        {
            Thread.Yield();
            return false;
        }
    }

    /// <summary>Sends probes until one crosses the new connection, then checks ordinary traffic.</summary>
    private static void ProbeUntilDelivered(IEnd push, IEnd pull)
    {
        var probe = Bytes.Of("probe");
        Deadline.RetryUntil(() =>
        {
            push.TrySendMessage(probe);
            return pull.TryRecvMessage(Timeouts.Probe) is not null;
        }, $"{push.Name} to reconnect to {pull.Name}");
        push.SendMessage(Bytes.Of("after reconnect"));
        Bytes.Equal([Bytes.Of("after reconnect")], Transfer.RecvSkipping(pull, probe), "first message after reconnect");
    }
}
