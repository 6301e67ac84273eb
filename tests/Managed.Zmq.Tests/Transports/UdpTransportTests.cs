using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace Managed.Zmq.Tests.Transports;

/// <summary>
/// udp:// for RADIO and DISH, as libzmq 4.3.4 has it: a DISH binds, a RADIO connects; one message per datagram
/// (length octet, group, body); the DISH filters by group; unicast and multicast on loopback; libzmq's errors.
/// </summary>
public sealed class UdpTransportTests : IDisposable
{
    private const int Timeout = 5000;

    private readonly Context _context = new();
    private readonly List<Socket> _sockets = [];

    [Fact]
    public void RadioToDish_Unicast_DeliversJoinedGroupsOnly()
    {
        var (radio, dish) = Link("udp://127.0.0.1:*");
        dish.Join("wanted");
        SendUntilReceived(radio, dish, "wanted");

        Send(radio, "other", "skip");
        Send(radio, "wanted", "kept");

        using var message = new Message();
        dish.Recv(message);
        Assert.Equal("kept", message.ToString());
        Assert.Equal("wanted", message.Group);
    }

    [Theory]
    [InlineData("udp://239.193.7.{0}:*")]
    [InlineData("udp://*;239.193.8.{0}:*")]
    [InlineData("udp://127.0.0.1;239.193.9.{0}:*")]
    [InlineData("udp://lo;239.193.10.{0}:*")]
    public void RadioToDish_MulticastOnLoopback_Delivers(string pattern)
    {
        string endpoint = string.Format(System.Globalization.CultureInfo.InvariantCulture, pattern, Random.Shared.Next(1, 254));
        var (radio, dish) = Link(endpoint);
        dish.Join("m");

        SendUntilReceived(radio, dish, "m");
    }

    [Fact]
    public void Radio_Datagram_IsLengthGroupBody()
    {
        using var receiver = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Dgram, ProtocolType.Udp);
        receiver.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        receiver.ReceiveTimeout = Timeout;
        var radio = Create(SocketType.Radio);
        radio.Connect($"udp://127.0.0.1:{((IPEndPoint)receiver.LocalEndPoint!).Port}");

        Send(radio, "grp", "body");

        var buffer = new byte[100];
        int received = receiver.Receive(buffer);
        Assert.Equal("\u0003grpbody", Encoding.ASCII.GetString(buffer, 0, received));
    }

    [Fact]
    public void Dish_RawDatagrams_MalformedIgnoredValidDelivered()
    {
        var dish = Create(SocketType.Dish);
        dish.Bind("udp://127.0.0.1:*");
        dish.Join("g");
        int port = PortOf(dish.GetOptionString(SocketOption.Last_Endpoint));
        using var sender = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Dgram, ProtocolType.Udp);
        var target = new IPEndPoint(IPAddress.Loopback, port);

        // Empty, and a group longer than the datagram: libzmq ignores both.
        sender.SendTo([], target);
        sender.SendTo([9, (byte)'g'], target);
        sender.SendTo("\u0001gok"u8.ToArray(), target);

        using var message = new Message();
        dish.Recv(message);
        Assert.Equal("ok", message.ToString());
        Assert.Equal("g", message.Group);
    }

    [Fact]
    public void Radio_MessageLargerThanDatagram_NotSentNextOneIs()
    {
        var (radio, dish) = Link("udp://127.0.0.1:*");
        dish.Join("g");
        SendUntilReceived(radio, dish, "g");

        // libzmq's udp engine holds 8192 octets: length octet, group and body must fit.
        Send(radio, "g", new string('x', 8192 - 2 + 1));
        Send(radio, "g", new string('y', 8192 - 2));

        using var message = new Message();
        dish.Recv(message);
        Assert.Equal(8190, message.Size);
        Assert.Equal((byte)'y', message.Data[0]);
    }

    [Fact]
    public void Dish_LastEndpoint_HasTheBoundPort()
    {
        var dish = Create(SocketType.Dish);

        dish.Bind("udp://127.0.0.1:*");

        Assert.Matches(@"^udp://127\.0\.0\.1:[1-9][0-9]*$", dish.GetOptionString(SocketOption.Last_Endpoint));
    }

    [Theory]
    [InlineData(SocketType.Radio, true)]
    [InlineData(SocketType.Dish, false)]
    [InlineData(SocketType.Pub, true)]
    [InlineData(SocketType.Sub, false)]
    [InlineData(SocketType.Server, true)]
    public void BindOrConnect_WrongSide_ThrowsEnocompatproto(SocketType type, bool bind)
    {
        var socket = Create(type);

        var ex = Assert.Throws<ZmqException>(() =>
        {
            if (bind)
            {
                socket.Bind("udp://127.0.0.1:*");
            }
            else
            {
                socket.Connect("udp://127.0.0.1:5555");
            }
        });

        Assert.Equal(ZmqConstants.ENOCOMPATPROTO, ex.ErrorNumber);
    }

    [Theory]
    [InlineData("udp://127.0.0.1", true)]
    [InlineData("udp://127.0.0.1:x", true)]
    [InlineData("udp://127.0.0.1;127.0.0.2:5555", true)]
    [InlineData("udp://239.1.1.1;239.1.1.2:5555", true)]
    [InlineData("udp://127.0.0.1:0", false)]
    [InlineData("udp://*:5555", false)]
    public void BindOrConnect_BadAddress_ThrowsEinval(string endpoint, bool bind)
    {
        var socket = Create(bind ? SocketType.Dish : SocketType.Radio);

        var ex = Assert.Throws<ZmqException>(() =>
        {
            if (bind)
            {
                socket.Bind(endpoint);
            }
            else
            {
                socket.Connect(endpoint);
            }
        });

        Assert.Equal(ZmqConstants.EINVAL, ex.ErrorNumber);
    }

    [Fact]
    public void Bind_EmptyHost_EnodevAsLibzmq()
    {
        var dish = Create(SocketType.Dish);

        var ex = Assert.Throws<ZmqException>(() => dish.Bind("udp://:5555"));

        Assert.Equal(ZmqConstants.ENODEV, ex.ErrorNumber);
    }

    [Fact]
    public void Unbind_Dish_StopsReceiving()
    {
        var (radio, dish) = Link("udp://127.0.0.1:*");
        dish.Join("g");
        SendUntilReceived(radio, dish, "g");

        dish.Unbind(dish.GetOptionString(SocketOption.Last_Endpoint));

        Send(radio, "g", "late");
        dish.SetOption(SocketOption.Rcvtimeo, 0);
        Assert.Throws<ZmqException>(() => dish.RecvString());
    }

    private (Socket Radio, Socket Dish) Link(string bindEndpoint)
    {
        var dish = Create(SocketType.Dish);
        dish.Bind(bindEndpoint);
        var radio = Create(SocketType.Radio);
        // The RADIO sends from the interface the DISH joined the group on (IP_MULTICAST_IF), as libzmq's does.
        radio.Connect(dish.GetOptionString(SocketOption.Last_Endpoint));
        return (radio, dish);
    }

    private static int PortOf(string endpoint) => int.Parse(endpoint[(endpoint.LastIndexOf(':') + 1)..], System.Globalization.CultureInfo.InvariantCulture);

    private static void Send(Socket radio, string group, string text)
    {
        using var message = new Message(text);
        message.Group = group;
        radio.Send(message);
    }

    /// <summary>Sends "probe" to <paramref name="group"/> until the DISH receives one (udp may lose a datagram; loopback rarely does).</summary>
    private static void SendUntilReceived(Socket radio, Socket dish, string group)
    {
        dish.SetOption(SocketOption.Rcvtimeo, 50);
        var clock = Stopwatch.StartNew();
        using var message = new Message();
        while (clock.ElapsedMilliseconds < Timeout)
        {
            Send(radio, group, "probe");
            try
            {
                dish.Recv(message);
                Assert.Equal("probe", message.ToString());
                Assert.Equal(group, message.Group);

                // Later probes still in flight are left to the group filter: the caller's next group differs or it reads past them.
                DrainProbes(dish);
                dish.SetOption(SocketOption.Rcvtimeo, Timeout);
                return;
            }
            catch (ZmqException ex) when (ex.ErrorNumber == ZmqConstants.EAGAIN)
            {
            }
        }

        Assert.Fail($"no datagram reached the dish within {Timeout} ms");
    }

    private static void DrainProbes(Socket dish)
    {
        dish.SetOption(SocketOption.Rcvtimeo, 0);
        using var message = new Message();
        while (true)
        {
            try
            {
                dish.Recv(message);
                Assert.Equal("probe", message.ToString());
            }
            catch (ZmqException ex) when (ex.ErrorNumber == ZmqConstants.EAGAIN)
            {
                return;
            }
        }
    }

    private Socket Create(SocketType type)
    {
        var socket = new Socket(_context, type);
        socket.SetOption(SocketOption.Linger, 0);
        socket.SetOption(SocketOption.Rcvtimeo, Timeout);
        socket.SetOption(SocketOption.Sndtimeo, Timeout);
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
