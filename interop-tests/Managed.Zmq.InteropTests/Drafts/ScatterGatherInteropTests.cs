#if !INTEROP_WITHOUT_CORE
using System.Text;
using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;
using Managed.Zmq.InteropTests.Ws;

namespace Managed.Zmq.InteropTests.Drafts;

/// <summary>
/// SCATTER and GATHER (RFC 49) against libzmq's draft implementation (loaded in process through
/// <see cref="DraftLibZmq"/>, which fails the test when the draft build is missing), both ways, over tcp, ipc and
/// ws: each side accepts the other's READY name, messages arrive whole and in order, round robin over libzmq's
/// gathers, and both refuse a multipart send and an incompatible peer alike.
/// </summary>
public sealed class ScatterGatherInteropTests
{
    private const int Messages = 20;

    [Theory]
    [InlineData("tcp", true)]
    [InlineData("tcp", false)]
    [InlineData("ipc", true)]
    [InlineData("ipc", false)]
    [InlineData("ws", true)]
    [InlineData("ws", false)]
    public Task OurScatter_LibzmqGather_EveryMessageInOrder(string transport, bool oursBinds) => Deadline.Run(() =>
    {
        using var theirContext = new DraftContext();
        using var gather = theirContext.Socket(SocketType.Gather);
        using var context = new Context();
        using var scatter = DraftInterop.Open(context, SocketType.Scatter);
        DraftInterop.Join(scatter, gather, transport, oursBinds);

        for (int i = 0; i < Messages; i++)
        {
            scatter.Send($"task {i}");
        }

        for (int i = 0; i < Messages; i++)
        {
            byte[][] frames = gather.RecvMessage();
            Assert.Single(frames);
            Assert.Equal($"task {i}", Encoding.UTF8.GetString(frames[0]));
        }
    });

    [Theory]
    [InlineData("tcp", true)]
    [InlineData("tcp", false)]
    [InlineData("ipc", true)]
    [InlineData("ipc", false)]
    [InlineData("ws", true)]
    [InlineData("ws", false)]
    public Task LibzmqScatter_OurGather_EveryMessageInOrder(string transport, bool oursBinds) => Deadline.Run(() =>
    {
        using var theirContext = new DraftContext();
        using var scatter = theirContext.Socket(SocketType.Scatter);
        using var context = new Context();
        using var gather = DraftInterop.Open(context, SocketType.Gather);
        DraftInterop.Join(gather, scatter, transport, oursBinds);

        for (int i = 0; i < Messages; i++)
        {
            scatter.SendMessage(Encoding.UTF8.GetBytes($"result {i}"));
        }

        for (int i = 0; i < Messages; i++)
        {
            Assert.Equal($"result {i}", gather.RecvString());
            Assert.False(gather.HasMore);
        }
    });

    /// <summary>Our SCATTER round-robins over two libzmq GATHERs as libzmq's own would: alternate messages to each.</summary>
    [Theory]
    [InlineData("tcp")]
    [InlineData("ipc")]
    public Task OurScatter_TwoLibzmqGathers_RoundRobin(string transport) => Deadline.Run(() =>
    {
        using var theirContext = new DraftContext();
        using var first = theirContext.Socket(SocketType.Gather);
        using var second = theirContext.Socket(SocketType.Gather);
        using var context = new Context();
        using var scatter = DraftInterop.Open(context, SocketType.Scatter);
        scatter.Connect(first.Bind(DraftInterop.BindEndpoint(transport)));
        scatter.Connect(second.Bind(DraftInterop.BindEndpoint(transport)));

        for (int i = 0; i < 10; i++)
        {
            scatter.Send($"m{i}");
        }

        string[] a = [.. Enumerable.Range(0, 5).Select(_ => Encoding.UTF8.GetString(first.RecvMessage()[0]))];
        string[] b = [.. Enumerable.Range(0, 5).Select(_ => Encoding.UTF8.GetString(second.RecvMessage()[0]))];
        int start = a[0] == "m0" ? 0 : 1;
        Assert.Equal(Enumerable.Range(0, 5).Select(i => $"m{start + 2 * i}"), a);
        Assert.Equal(Enumerable.Range(0, 5).Select(i => $"m{1 - start + 2 * i}"), b);
    });

    /// <summary>libzmq's SCATTER refuses ZMQ_SNDMORE with EINVAL; ours does the same.</summary>
    [Fact]
    public void SendMore_LibzmqAndOurs_BothEinval() => DraftInterop.AssertSendMoreRefusedAlike(SocketType.Scatter);

    /// <summary>libzmq's GATHER accepts only SCATTER and our PUSH only PULL: the handshake is refused, with no handshake event under NULL.</summary>
    [Theory]
    [InlineData("tcp")]
    [InlineData("ipc")]
    public Task LibzmqGather_OurPush_HandshakeRefused(string transport) => Deadline.Run(() =>
    {
        using var theirContext = new DraftContext();
        using var gather = theirContext.Socket(SocketType.Gather);
        using var theirMonitor = gather.Monitor(DraftInterop.HandshakeOutcomeEvents);
        string endpoint = gather.Bind(DraftInterop.BindEndpoint(transport));
        using var context = new Context();
        using var push = DraftInterop.Open(context, SocketType.Push);
        using var monitor = Resilience.MonitorReader.Attach(context, push);
        push.Connect(endpoint);

        DraftInterop.AssertHandshakeRefused(monitor, theirMonitor);
    });

    /// <summary>Our GATHER accepts only SCATTER and libzmq's PUSH only PULL: the handshake is refused, with no handshake event under NULL.</summary>
    [Theory]
    [InlineData("tcp")]
    [InlineData("ipc")]
    public Task OurGather_LibzmqPush_HandshakeRefused(string transport) => Deadline.Run(() =>
    {
        using var context = new Context();
        using var gather = DraftInterop.Open(context, SocketType.Gather);
        using var monitor = Resilience.MonitorReader.Attach(context, gather);
        gather.Bind(DraftInterop.BindEndpoint(transport));
        using var theirContext = new DraftContext();
        using var push = theirContext.Socket(SocketType.Push);
        using var theirMonitor = push.Monitor(DraftInterop.HandshakeOutcomeEvents);
        push.Connect(gather.GetOptionString(SocketOption.Last_Endpoint));

        DraftInterop.AssertHandshakeRefused(monitor, theirMonitor);
    });
}
#endif
