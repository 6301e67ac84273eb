#if !INTEROP_WITHOUT_CORE
using Managed.Zmq.InteropTests.Infrastructure;

namespace Managed.Zmq.InteropTests.Drafts;

/// <summary>
/// RADIO and DISH (RFC 48) against libzmq's draft implementation, both ways, binding and connecting: the READY
/// names, JOIN commands, the group-then-body frames on tcp and ipc, the datagrams on udp (unicast and multicast),
/// exact group filtering, and the group handed to the receiver (a long group too: libzmq 4.3.4 takes up to 255
/// bytes).
/// </summary>
public sealed class RadioDishInteropTests
{
    private const int Count = 5;

    public static TheoryData<string, bool, string> Cases => new()
    {
        { "tcp", true, "weather" },
        { "tcp", false, "weather" },
        { "ipc", true, "weather" },
        { "ipc", false, "weather" },
        { "tcp", true, new string('g', 255) },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public Task OurRadio_LibzmqDish_ReceivesItsGroupOnly(string transport, bool peerBinds, string group) => Deadline.Run(() =>
    {
        using var context = new Context();
        using var radio = Open(context, SocketType.Radio);
        using var peer = Start(radio, "dish", peerBinds, transport, group);
        peer.ReadLine("ready");

        // The DISH's JOIN reaches the RADIO some time after the handshake: probe until one arrives.
        Deadline.RetryUntil(
            () =>
            {
                SendTo(radio, group, "probe");
                return peer.TryReadLine("got ", (int)Timeouts.Probe.TotalMilliseconds) is not null;
            },
            "the libzmq DISH's JOIN");

        for (int i = 0; i < Count; i++)
        {
            SendTo(radio, "other", $"skip {i}");
            SendTo(radio, group, $"msg {i}");
        }

        for (int i = 0; i < Count; i++)
        {
            string got;
            do
            {
                got = peer.ReadLine("got ");
            }
            while (got == $"{group}|probe");

            Assert.Equal($"{group}|msg {i}", got);
        }

        peer.AssertExitsCleanly();
    });

    [Theory]
    [MemberData(nameof(Cases))]
    public Task LibzmqRadio_OurDish_ReceivesItsGroupOnly(string transport, bool peerBinds, string group) => Deadline.Run(() =>
    {
        using var context = new Context();
        using var dish = Open(context, SocketType.Dish);
        dish.Join(group);
        using var peer = Start(dish, "radio", peerBinds, transport, group);
        peer.ReadLine("ready");

        using var message = new Message();
        dish.Recv(message);
        Assert.Equal("probe", message.ToString());
        Assert.Equal(group, message.Group);
        peer.Go();

        for (int i = 0; i < Count; i++)
        {
            do
            {
                dish.Recv(message);
            }
            while (message.ToString() == "probe");

            Assert.Equal($"msg {i}", message.ToString());
            Assert.Equal(group, message.Group);
        }

        peer.ReadLine("sent");
        peer.AssertExitsCleanly();
    });

    public static TheoryData<string> UdpHosts => ["127.0.0.1", "239.194.{0}.{1}", "lo;239.195.{0}.{1}"];

    /// <summary>udp, unicast and multicast: libzmq's DISH binds a port found free, our RADIO sends datagrams to it.</summary>
    [Theory]
    [MemberData(nameof(UdpHosts))]
    public Task OurRadio_LibzmqDishOverUdp_ReceivesItsGroupOnly(string host) => Deadline.Run(() =>
    {
        string endpoint = $"udp://{Host(host)}:{FreeUdpPort()}";
        using var context = new Context();
        using var radio = Open(context, SocketType.Radio);
        using var peer = RadioDishPeer.Start("dish", bind: true, endpoint, "weather", Count);
        peer.ReadLine("ready");
        radio.Connect(endpoint);

        Deadline.RetryUntil(
            () =>
            {
                SendTo(radio, "weather", "probe");
                return peer.TryReadLine("got ", (int)Timeouts.Probe.TotalMilliseconds) is not null;
            },
            "a datagram at the libzmq DISH");

        for (int i = 0; i < Count; i++)
        {
            SendTo(radio, "other", $"skip {i}");
            SendTo(radio, "weather", $"msg {i}");
        }

        for (int i = 0; i < Count; i++)
        {
            string got;
            do
            {
                got = peer.ReadLine("got ");
            }
            while (got == "weather|probe");

            Assert.Equal($"weather|msg {i}", got);
        }

        peer.AssertExitsCleanly();
    });

    /// <summary>udp, unicast and multicast: our DISH binds, libzmq's RADIO sends datagrams to its endpoint.</summary>
    [Theory]
    [MemberData(nameof(UdpHosts))]
    public Task LibzmqRadio_OurDishOverUdp_ReceivesItsGroupOnly(string host) => Deadline.Run(() =>
    {
        using var context = new Context();
        using var dish = Open(context, SocketType.Dish);
        dish.Join("weather");
        dish.Bind($"udp://{Host(host)}:*");
        using var peer = RadioDishPeer.Start("radio", bind: false, dish.GetOptionString(SocketOption.Last_Endpoint), "weather", Count);
        peer.ReadLine("ready");

        using var message = new Message();
        dish.Recv(message);
        Assert.Equal("probe", message.ToString());
        Assert.Equal("weather", message.Group);
        peer.Go();

        for (int i = 0; i < Count; i++)
        {
            do
            {
                dish.Recv(message);
            }
            while (message.ToString() == "probe");

            Assert.Equal($"msg {i}", message.ToString());
            Assert.Equal("weather", message.Group);
        }

        peer.ReadLine("sent");
        peer.AssertExitsCleanly();
    });

    /// <summary>A multicast group of its own per test, so parallel runs do not hear each other.</summary>
    private static string Host(string pattern) =>
        string.Format(System.Globalization.CultureInfo.InvariantCulture, pattern, Random.Shared.Next(1, 255), Random.Shared.Next(1, 255));

    /// <summary>A udp port nothing is bound to now (for libzmq's DISH, whose Last_Endpoint does not tell a wildcard port).</summary>
    private static int FreeUdpPort()
    {
        using var probe = new System.Net.Sockets.Socket(System.Net.Sockets.AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Dgram, System.Net.Sockets.ProtocolType.Udp);
        probe.Bind(new System.Net.IPEndPoint(System.Net.IPAddress.Any, 0));
        return ((System.Net.IPEndPoint)probe.LocalEndPoint!).Port;
    }

    /// <summary>libzmq's DISH names itself DISH in READY; our SUB refuses it, as libzmq's SUB would.</summary>
    [Fact]
    public Task LibzmqDish_OurSub_HandshakeRefused() => Deadline.Run(() =>
    {
        using var peer = RadioDishPeer.Start("dish", bind: true, BindEndpoint("tcp"), "g", 1);
        string endpoint = peer.ReadLine("endpoint ");
        using var context = new Context();
        using var sub = Open(context, SocketType.Sub);
        using var monitor = Resilience.MonitorReader.Attach(context, sub);
        sub.Connect(endpoint);

        DraftInterop.AssertOursRefusedSilently(monitor);
    });

    /// <summary>Starts the libzmq peer bound (ours connects) or connecting (ours binds first).</summary>
    private static RadioDishPeer Start(Socket ours, string role, bool peerBinds, string transport, string group)
    {
        if (peerBinds)
        {
            var peer = RadioDishPeer.Start(role, bind: true, BindEndpoint(transport), group, Count);
            ours.Connect(peer.ReadLine("endpoint "));
            return peer;
        }

        ours.Bind(BindEndpoint(transport));
        return RadioDishPeer.Start(role, bind: false, ours.GetOptionString(SocketOption.Last_Endpoint), group, Count);
    }

    private static void SendTo(Socket radio, string group, string text)
    {
        using var message = new Message(text);
        message.Group = group;
        radio.Send(message);
    }

    private static string BindEndpoint(string transport) => transport == "tcp"
        ? "tcp://127.0.0.1:*"
        : "ipc://" + Path.Combine(Path.GetTempPath(), "mzq-radio-" + Guid.NewGuid().ToString("N")[..12]);

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
