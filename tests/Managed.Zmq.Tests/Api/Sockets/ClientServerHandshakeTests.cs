
namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>
/// CLIENT and SERVER (RFC 41) talk only to each other: any other peer type is refused in ZMTP's READY, as
/// libzmq refuses it under NULL: DISCONNECTED with no handshake event (docs/libzmq-behaviour.md L6). tcp and ipc
/// only: inproc has no handshake.
/// </summary>
public sealed class ClientServerHandshakeTests : IDisposable
{
    private readonly Context _context = new();
    private readonly List<Socket> _sockets = [];

    [Theory]
    [InlineData("tcp://127.0.0.1:*", SocketType.Dealer, SocketType.Server)]
    [InlineData("tcp://127.0.0.1:*", SocketType.Server, SocketType.Server)]
    [InlineData("tcp://127.0.0.1:*", SocketType.Client, SocketType.Client)]
    [InlineData("tcp://127.0.0.1:*", SocketType.Router, SocketType.Client)]
    [InlineData("ipc://*", SocketType.Dealer, SocketType.Server)]
    [InlineData("ipc://*", SocketType.Client, SocketType.Router)]
    public void Connect_IncompatiblePeer_ClosedWithoutHandshakeEvent(string endpoint, SocketType connecting, SocketType bound)
    {
        var binder = Create(bound);
        using var monitor = MonitorProbe.Attach(_context, binder);
        binder.Bind(endpoint);
        var connector = Create(connecting);
        connector.Connect(binder.GetOptionString(SocketOption.Last_Endpoint));

        monitor.AssertClosedWithoutHandshakeEvent();
    }

    [Theory]
    [InlineData("tcp://127.0.0.1:*")]
    [InlineData("ipc://*")]
    public void Connect_ClientToServer_HandshakeSucceeds(string endpoint)
    {
        var server = Create(SocketType.Server);
        using var monitor = MonitorProbe.Attach(_context, server);
        server.Bind(endpoint);
        var client = Create(SocketType.Client);
        client.Connect(server.GetOptionString(SocketOption.Last_Endpoint));

        var succeeded = monitor.WaitFor(MonitorProbe.HandshakeSucceeded);

        Assert.Equal(MonitorProbe.HandshakeSucceeded, (int)succeeded.Event);
    }

    private Socket Create(SocketType type)
    {
        var socket = new Socket(_context, type);
        socket.SetOption(SocketOption.Linger, 0);
        _sockets.Add(socket);
        return socket;
    }

    public void Dispose()
    {
        foreach (var socket in _sockets)
        {
            socket.Dispose();
        }

        _context.Dispose();
    }
}
