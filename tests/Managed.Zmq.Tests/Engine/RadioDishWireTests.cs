using System.Diagnostics;
using System.Text;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// RADIO and DISH on the wire against a raw ZMTP peer, byte for byte as libzmq 4.3.4 puts them: JOIN and LEAVE
/// are command frames (<c>\x04JOIN</c> and <c>\x05LEAVE</c>, then the group), to ZMTP 3.0 and 3.1 peers alike; a
/// message is a group frame with MORE, then the body frame. A DISH ends a connection that breaks that form, as
/// libzmq's dish session does; a RADIO ignores a JOIN whose group no message could carry.
/// </summary>
public sealed class RadioDishWireTests : ResilienceFixture
{
    [Theory]
    [InlineData((byte)1)]
    [InlineData((byte)0)]
    public void Dish_JoinAndLeave_SentAsCommandFrames(byte minor)
    {
        using var listener = new RawListener();
        var dish = Create(SocketType.Dish);
        dish.Join("early");
        dish.Connect($"tcp://127.0.0.1:{listener.Port}");
        using var radio = listener.Accept();
        radio.CompleteNullHandshake("RADIO", minor);

        AssertCommand(radio.ReadFrame(), "\u0004JOINearly");
        dish.Join("late");
        AssertCommand(radio.ReadFrame(), "\u0004JOINlate");
        dish.Leave("early");
        AssertCommand(radio.ReadFrame(), "\u0005LEAVEearly");
    }

    [Fact]
    public void Dish_GroupFrameThenBody_DeliveredWithItsGroup()
    {
        using var listener = new RawListener();
        var dish = Create(SocketType.Dish);
        dish.Join("g");
        dish.Connect($"tcp://127.0.0.1:{listener.Port}");
        using var radio = listener.Accept();
        radio.CompleteNullHandshake("RADIO");

        radio.Send(ZmtpBytes.Concat(ZmtpBytes.Message("other", more: true), ZmtpBytes.Message("dropped"), ZmtpBytes.Message("g", more: true), ZmtpBytes.Message("body")));

        using var message = new Message();
        dish.Recv(message);
        Assert.Equal("body", message.ToString());
        Assert.Equal("g", message.Group);
    }

    [Fact]
    public void Dish_LargeBody_DeliveredWithItsGroup()
    {
        using var listener = new RawListener();
        var dish = Create(SocketType.Dish);
        dish.Join("big");
        dish.Connect($"tcp://127.0.0.1:{listener.Port}");
        using var radio = listener.Accept();
        radio.CompleteNullHandshake("RADIO");

        radio.Send(ZmtpBytes.Concat(ZmtpBytes.Message("big", more: true), ZmtpBytes.Frame(0, new byte[64 * 1024])));

        using var message = new Message();
        dish.Recv(message);
        Assert.Equal(64 * 1024, message.Size);
        Assert.Equal("big", message.Group);
    }

    [Theory]
    [InlineData("single")]
    [InlineData("three")]
    [InlineData("longgroup")]
    [InlineData("largesingle")]
    [InlineData("largebodymore")]
    public void Dish_MessageNotGroupThenBody_ConnectionClosed(string shape)
    {
        var guard = InternalErrorsGuard.Start();
        var dish = Create(SocketType.Dish);
        using var monitor = Monitor(dish);
        string endpoint = BindTcp(dish);
        using var radio = RawPeer.Connect(RawPeer.PortOf(endpoint));
        radio.CompleteNullHandshake("RADIO");

        byte[] input = shape switch
        {
            "single" => ZmtpBytes.Message("no group"),
            "three" => ZmtpBytes.Concat(ZmtpBytes.Message("g", more: true), ZmtpBytes.Message("a", more: true), ZmtpBytes.Message("b")),
            "largesingle" => ZmtpBytes.Frame(0, new byte[64 * 1024]),
            "largebodymore" => ZmtpBytes.Concat(ZmtpBytes.Message("g", more: true), ZmtpBytes.Frame(ZmtpBytes.FlagMore, new byte[64 * 1024])),
            _ => ZmtpBytes.Concat(ZmtpBytes.Message(new string('g', 256), more: true), ZmtpBytes.Message("b")),
        };
        radio.TrySend(input);

        Assert.True(radio.WaitUntilClosed(Timeout), "the DISH closes a connection that breaks the group-then-body form");
        monitor.WaitFor(SocketMonitorEvent.Disconnected);
        guard.AssertNoneSince();
    }

    [Theory]
    [InlineData((byte)1)]
    [InlineData((byte)0)]
    public void Radio_AfterJoin_SendsGroupFrameThenBody(byte minor)
    {
        var radio = Create(SocketType.Radio);
        string endpoint = BindTcp(radio);
        using var dish = RawPeer.Connect(RawPeer.PortOf(endpoint));
        dish.CompleteNullHandshake("DISH", minor);

        // A JOIN too long for any message is ignored (libzmq aborts on one); the connection stays up.
        dish.Send(ZmtpBytes.Command("JOIN", Encoding.ASCII.GetBytes(new string('x', 300))));
        dish.Send(ZmtpBytes.Command("JOIN", "grp"u8));

        var (flags, body) = SendUntilRead(radio, dish, "grp", "payload");
        Assert.Equal(ZmtpBytes.FlagMore, flags);
        Assert.Equal("grp", Encoding.ASCII.GetString(body));
        (flags, body) = dish.ReadFrame();
        Assert.Equal(0, flags);
        Assert.Equal("payload", Encoding.ASCII.GetString(body));
    }

    private static void AssertCommand((byte Flags, byte[] Body) frame, string expected)
    {
        Assert.Equal(ZmtpBytes.FlagCommand, frame.Flags);
        Assert.Equal(expected, Encoding.ASCII.GetString(frame.Body));
    }

    /// <summary>Sends to <paramref name="group"/> until the raw peer reads a frame: the RADIO applies the JOIN on a send of its own.</summary>
    private static (byte Flags, byte[] Body) SendUntilRead(Socket radio, RawPeer dish, string group, string text)
    {
        var clock = Stopwatch.StartNew();
        while (clock.ElapsedMilliseconds < Timeout)
        {
            using (var message = new Message(text))
            {
                message.Group = group;
                radio.Send(message);
            }

            try
            {
                return dish.ReadFrame(50);
            }
            catch (Exception ex) when (ex is TimeoutException || ex is System.Net.Sockets.SocketException { SocketErrorCode: System.Net.Sockets.SocketError.TimedOut })
            {
            }
        }

        Assert.Fail($"no frame reached the raw DISH within {Timeout} ms");
        return default;
    }
}
