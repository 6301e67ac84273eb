using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests.Ipc;

/// <summary>
/// The other ipc endpoint forms against libzmq: <c>ipc://*</c>, where the connector dials the path
/// the binder reports in Last_Endpoint, and Linux's abstract <c>ipc://@name</c>; plus the socket file
/// as libzmq sees it (removed by our Unbind, replaced by our Bind).
/// </summary>
public sealed class IpcEndpointFormTests
{
    public static TheoryData<Transport, Topology, SocketType> PushPullForms
    {
        get
        {
            var data = new TheoryData<Transport, Topology, SocketType>();
            foreach (var transport in new[] { Transport.IpcWildcard, Transport.IpcAbstract })
            {
                foreach (var topology in Enum.GetValues<Topology>())
                {
                    data.Add(transport, topology, SocketType.Push);
                    data.Add(transport, topology, SocketType.Pull);
                }
            }

            return data;
        }
    }

    public static TheoryData<Transport, Topology> Forms
    {
        get
        {
            var data = new TheoryData<Transport, Topology>();
            foreach (var transport in new[] { Transport.IpcWildcard, Transport.IpcAbstract })
            {
                foreach (var topology in Enum.GetValues<Topology>())
                    data.Add(transport, topology);
            }

            return data;
        }
    }

    [Theory, MemberData(nameof(PushPullForms))]
    public Task PushPull_EndpointForm_MultipartMebibyteAndStreamArrive(Transport transport, Topology topology, SocketType ours) => Deadline.Run(() =>
    {
        using var link = new Link(topology, ours, Cases.Peer(ours, SocketType.Push, SocketType.Pull), null, null, transport);
        var (push, pull) = (link[SocketType.Push], link[SocketType.Pull]);

        Transfer.Deliver(push, pull, Transfer.MultipartWithEmptyFrames());
        Transfer.Deliver(push, pull, [Bytes.Pattern(Transfer.MiB)]);
        Transfer.Stream(push, pull);
    });

    [Theory, MemberData(nameof(Forms))]
    public Task DealerRouter_EndpointForm_RoutingIdRoutesBothWays(Transport transport, Topology topology) => Deadline.Run(() =>
    {
        var id = Bytes.Of("form-dealer");
        using var link = new Link(topology, SocketType.Dealer, SocketType.Router,
            configureOurs: end => end.SetOption(LibZmq.ZMQ_ROUTING_ID, id), configureTheirs: null, transport);

        Transfer.Deliver(link.Ours, link.Theirs, [Bytes.Of("hello"), []], [id, Bytes.Of("hello"), []]);
        Transfer.Deliver(link.Theirs, link.Ours, [id, Bytes.Pattern(256)], [Bytes.Pattern(256)]);
    });

#if !INTEROP_WITHOUT_CORE
    [Fact]
    public Task Unbind_OurIpcListener_LibzmqReconnectsToOurNewBind() => Deadline.Run(() =>
    {
        // Our Unbind removes the file and a later Bind of the same path creates it again: a libzmq
        // connector that lost us reconnects through the new file.
        var path = Path.Combine(Path.GetTempPath(), $"managed-zmq-interop-{Guid.NewGuid():N}.sock");
        var endpoint = "ipc://" + path;
        using var context = new Context();
        using var theirContext = new NativeContext();
        using var pull = new ManagedEnd(context, SocketType.Pull);
        using var push = theirContext.Socket(SocketType.Push);

        pull.Bind(endpoint);
        push.Connect(endpoint);
        Transfer.Deliver(push, pull, [Bytes.Of("before")]);

        pull.Socket.Unbind(endpoint);
        Assert.False(File.Exists(path), "Unbind left the socket file behind");
        pull.Bind(endpoint);
        Assert.True(File.Exists(path), "Bind did not create the socket file again");

        // A message sent into the lost connection may be dropped, as between two libzmq peers.
        Deadline.RetryUntil(() =>
        {
            push.TrySendMessage(Bytes.Of("after"));
            return pull.TryRecvMessage(Timeouts.Probe) is { } got && Bytes.Text(got[0]) == "after";
        }, "libzmq PUSH to reach the rebound Managed.Zmq PULL");
    });

    [Fact]
    public Task Bind_PathLibzmqLeftBehind_OursReplacesItAndLibzmqConnects() => Deadline.Run(() =>
    {
        // libzmq 4.3 leaves an explicit path's socket file behind when it closes: we must bind over it.
        var path = Path.Combine(Path.GetTempPath(), $"managed-zmq-interop-{Guid.NewGuid():N}.sock");
        var endpoint = "ipc://" + path;
        using (var deadContext = new NativeContext())
        using (var dead = deadContext.Socket(SocketType.Pull))
        {
            dead.Bind(endpoint);
        }

        try
        {
            using var context = new Context();
            using var theirContext = new NativeContext();
            using var pull = new ManagedEnd(context, SocketType.Pull);
            using var push = theirContext.Socket(SocketType.Push);

            Assert.Equal(endpoint, pull.Bind(endpoint));
            push.Connect(endpoint);
            Transfer.Deliver(push, pull, [Bytes.Of("over the stale file")]);
        }
        finally
        {
            File.Delete(path);
        }
    });
#endif
}
