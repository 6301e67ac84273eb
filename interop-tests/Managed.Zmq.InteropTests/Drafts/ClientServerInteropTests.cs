#if !INTEROP_WITHOUT_CORE
using System.Globalization;
using Managed.Zmq.InteropTests.Infrastructure;

namespace Managed.Zmq.InteropTests.Drafts;

/// <summary>
/// CLIENT and SERVER (RFC 41) against libzmq's draft implementation, both ways, over tcp and ipc: the READY
/// names and compatibility check, single-part messages, and replies routed by the server's routing ids.
/// </summary>
public sealed class ClientServerInteropTests
{
    private const int Exchanges = 5;

    [Theory]
    [InlineData("tcp")]
    [InlineData("ipc")]
    public Task LibzmqServer_OurClient_RepliesRoutedBack(string transport) => Deadline.Run(() =>
    {
        using var peer = DraftPeer.Start("server", BindEndpoint(transport), Exchanges);
        string endpoint = peer.ReadLine("endpoint ");
        using var context = new Context();
        using var client = Open(context, SocketType.Client);
        client.Connect(endpoint);

        var ids = new HashSet<string>();
        for (int i = 0; i < Exchanges; i++)
        {
            client.Send($"request {i}");
            Assert.Equal($"echo:request {i}", client.RecvString());
            Assert.False(client.HasMore);
            string[] got = peer.ReadLine("got ").Split(' ', 2);
            Assert.Equal($"request {i}", got[1]);
            ids.Add(got[0]);
        }

        // One connection, one routing id, never 0.
        Assert.Single(ids);
        Assert.NotEqual(0u, uint.Parse(ids.Single(), CultureInfo.InvariantCulture));
        peer.AssertExitsCleanly();
    });

    [Theory]
    [InlineData("tcp")]
    [InlineData("ipc")]
    public Task OurServer_LibzmqClient_RepliesRoutedBack(string transport) => Deadline.Run(() =>
    {
        using var context = new Context();
        using var server = Open(context, SocketType.Server);
        server.Bind(BindEndpoint(transport));
        using var peer = DraftPeer.Start("client", server.GetOptionString(SocketOption.Last_Endpoint), Exchanges);

        using var message = new Message();
        uint first = 0;
        for (int i = 0; i < Exchanges; i++)
        {
            server.Recv(message);
            Assert.Equal($"hello {i}", message.ToString());
            Assert.NotEqual(0u, message.RoutingId);
            first = i == 0 ? message.RoutingId : first;
            Assert.Equal(first, message.RoutingId);

            using var reply = new Message("echo:" + message.ToString());
            reply.RoutingId = message.RoutingId;
            server.Send(reply);
            Assert.Equal($"echo:hello {i}", peer.ReadLine("reply "));
        }

        peer.AssertExitsCleanly();
    });

    /// <summary>libzmq's SERVER names itself SERVER in READY; our DEALER refuses it, as libzmq's DEALER would.</summary>
    [Fact]
    public Task LibzmqServer_OurDealer_HandshakeRefused() => Deadline.Run(() =>
    {
        using var peer = DraftPeer.Start("server", BindEndpoint("tcp"), 1);
        string endpoint = peer.ReadLine("endpoint ");
        using var context = new Context();
        using var dealer = Open(context, SocketType.Dealer);
        using var monitor = Resilience.MonitorReader.Attach(context, dealer);
        dealer.Connect(endpoint);

        DraftInterop.AssertOursRefusedSilently(monitor);
    });

    private static string BindEndpoint(string transport) => transport == "tcp"
        ? "tcp://127.0.0.1:*"
        : "ipc://" + Path.Combine(Path.GetTempPath(), "mzq-draft-" + Guid.NewGuid().ToString("N")[..12]);

    private static Socket Open(Context context, SocketType type)
    {
        var socket = new Socket(context, type);
        socket.SetOption(SocketOption.Linger, 0);
        socket.SetOption(SocketOption.Rcvtimeo, (int)Timeouts.Io.TotalMilliseconds);
        socket.SetOption(SocketOption.Sndtimeo, (int)Timeouts.Io.TotalMilliseconds);
        return socket;
    }
}
#endif
