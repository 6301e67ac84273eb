#if !INTEROP_WITHOUT_CORE
using System.Text;
using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;
using Managed.Zmq.InteropTests.Ws;

namespace Managed.Zmq.InteropTests.Drafts;

/// <summary>
/// CHANNEL (RFC 52) against libzmq's draft implementation (in process through <see cref="DraftLibZmq"/>, which fails
/// the test when the draft build is missing), both ways, over tcp, ipc and ws: the READY name CHANNEL accepted by
/// each side, single-part messages both directions, and a multipart send and a PAIR peer refused alike.
/// </summary>
public sealed class ChannelInteropTests
{
    private const int Exchanges = 10;

    [Theory]
    [InlineData("tcp", true)]
    [InlineData("tcp", false)]
    [InlineData("ipc", true)]
    [InlineData("ipc", false)]
    [InlineData("ws", true)]
    [InlineData("ws", false)]
    public Task OurChannel_LibzmqChannel_PingPongBothWays(string transport, bool oursBinds) => Deadline.Run(() =>
    {
        using var theirContext = new DraftContext();
        using var theirs = theirContext.Socket(SocketType.Channel);
        using var context = new Context();
        using var ours = DraftInterop.Open(context, SocketType.Channel);
        DraftInterop.Join(ours, theirs, transport, oursBinds);

        for (int i = 0; i < Exchanges; i++)
        {
            ours.Send($"ping {i}");
            byte[][] ping = theirs.RecvMessage();
            Assert.Single(ping);
            Assert.Equal($"ping {i}", Encoding.UTF8.GetString(ping[0]));

            theirs.SendMessage(Encoding.UTF8.GetBytes($"pong {i}"));
            Assert.Equal($"pong {i}", ours.RecvString());
            Assert.False(ours.HasMore);
        }
    });

    /// <summary>libzmq's CHANNEL refuses ZMQ_SNDMORE with EINVAL; ours does the same.</summary>
    [Fact]
    public void SendMore_LibzmqAndOurs_BothEinval() => DraftInterop.AssertSendMoreRefusedAlike(SocketType.Channel);

    /// <summary>A CHANNEL accepts only CHANNEL and a PAIR only PAIR, ours against libzmq's either way round: the handshake is refused, with no handshake event under NULL.</summary>
    [Theory]
    [InlineData("tcp", true)]
    [InlineData("tcp", false)]
    [InlineData("ipc", true)]
    [InlineData("ipc", false)]
    public Task ChannelAgainstPair_HandshakeRefused(string transport, bool oursIsChannel) => Deadline.Run(() =>
    {
        using var theirContext = new DraftContext();
        using var theirs = theirContext.Socket(oursIsChannel ? SocketType.Pair : SocketType.Channel);
        using var theirMonitor = theirs.Monitor(DraftInterop.HandshakeOutcomeEvents);
        string endpoint = theirs.Bind(DraftInterop.BindEndpoint(transport));
        using var context = new Context();
        using var ours = DraftInterop.Open(context, oursIsChannel ? SocketType.Channel : SocketType.Pair);
        using var monitor = Resilience.MonitorReader.Attach(context, ours);
        ours.Connect(endpoint);

        DraftInterop.AssertHandshakeRefused(monitor, theirMonitor);
    });
}
#endif
