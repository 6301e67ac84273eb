using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>
/// RADIO and DISH (RFC 48) talk only to each other: any other peer type is refused in ZMTP's READY, as libzmq
/// refuses it under NULL: the connection closes with DISCONNECTED and no handshake event (docs/libzmq-behaviour.md L6).
/// tcp and ipc only: inproc has no handshake.
/// </summary>
public sealed class RadioDishHandshakeTests : IDisposable
{
    private readonly Context _context = new();
    private readonly List<Socket> _sockets = [];

    [Theory]
    [InlineData("tcp://127.0.0.1:*", SocketType.Sub, SocketType.Radio)]
    [InlineData("tcp://127.0.0.1:*", SocketType.Radio, SocketType.Radio)]
    [InlineData("tcp://127.0.0.1:*", SocketType.Dish, SocketType.Dish)]
    [InlineData("tcp://127.0.0.1:*", SocketType.Dish, SocketType.Pub)]
    [InlineData("ipc://*", SocketType.Client, SocketType.Dish)]
    [InlineData("ipc://*", SocketType.Radio, SocketType.XSub)]
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
    public void Connect_DishToRadio_HandshakeSucceeds(string endpoint)
    {
        var radio = Create(SocketType.Radio);
        using var monitor = MonitorProbe.Attach(_context, radio);
        radio.Bind(endpoint);
        var dish = Create(SocketType.Dish);
        dish.Connect(radio.GetOptionString(SocketOption.Last_Endpoint));

        var succeeded = monitor.WaitFor(MonitorProbe.HandshakeSucceeded);

        Assert.Equal(MonitorProbe.HandshakeSucceeded, (int)succeeded.Event);
    }

    [Theory]
    [InlineData(SocketType.Dish, 0)]
    [InlineData(SocketType.Radio, -1)]
    public void Linger_Default_IsLibzmqs(SocketType type, int expected)
    {
        using var socket = new Socket(_context, type);

        // libzmq's DISH sets ZMQ_LINGER 0 when it is made; every other type keeps -1.
        Assert.Equal(expected, socket.GetOption<int>(SocketOption.Linger));
    }

    [Fact]
    public async Task ContextDispose_DishJoinedToUnreachablePeer_DoesNotHang()
    {
        using var context = new Context();
        var dish = new Socket(context, SocketType.Dish);
        dish.Join("g");
        dish.Connect(Support.RefusedPort.TcpEndpoint());

        dish.Dispose();
        var disposal = Task.Run(context.Dispose);

        var finished = await Task.WhenAny(disposal, Task.Delay(TimeSpan.FromSeconds(10)));
        Assert.True(finished == disposal, "a DISH's queued JOIN does not linger (its default LINGER is 0)");
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
