using System.Text;
using Managed.Zmq.Options;

namespace Managed.Zmq.Tests.Options;

/// <summary>
/// String and binary options: reads of strings include a NUL counted in the length, Routing_Id reads back its exact
/// bytes, and each option's length limit (docs/options.md).
/// </summary>
public sealed class SocketOptionsByteValueTests
{
    /// <summary>String option, longest accepted length in bytes, and values Net.Zmq's tests set and read back.</summary>
    public static TheoryData<int, int, string[]> Strings => new()
    {
        { OptionId.PlainUsername, 255, ["admin", "user@example"] },
        { OptionId.PlainPassword, 255, ["secret", "p@ss w0rd"] },
        { OptionId.ZapDomain, 255, ["global", "test"] },
        { OptionId.SocksProxy, 4096, ["", "127.0.0.1:1080", "proxy.example.com:1080"] },
        { OptionId.BindToDevice, 16, ["", "eth0", "lo"] },
        { OptionId.SocksUsername, 255, ["", "socks-user"] },
        { OptionId.SocksPassword, 255, ["", "socks secret"] },
    };

    /// <summary>String options with a length limit: one byte over it is EINVAL.</summary>
    public static TheoryData<int, int> LimitedStrings => new()
    {
        { OptionId.PlainUsername, 255 },
        { OptionId.PlainPassword, 255 },
        { OptionId.ZapDomain, 255 },
        { OptionId.BindToDevice, 16 },
        { OptionId.SocksUsername, 255 },
        { OptionId.SocksPassword, 255 },
    };

    public static TheoryData<int> StringOptions =>
        [OptionId.PlainUsername, OptionId.PlainPassword, OptionId.ZapDomain, OptionId.SocksProxy, OptionId.BindToDevice, OptionId.SocksUsername, OptionId.SocksPassword];

    [Theory]
    [MemberData(nameof(StringOptions))]
    public void TryGet_StringDefault_IsEmptyWithNul(int option)
    {
        var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);
        byte[] buffer = [0xAA, 0xAA, 0xAA];

        Assert.Equal(OptionStatus.Ok, options.TryGet(option, buffer, out int length));
        Assert.Equal(1, length);
        Assert.Equal(new byte[3], buffer);
    }

    [Theory]
    [MemberData(nameof(Strings))]
    public void TrySet_StringValue_ReadsBackWithNulCounted(int option, int maxLength, string[] values)
    {
        foreach (string value in values.Append(new string('x', maxLength)).Append("ünï"))
        {
            var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);
            byte[] utf8 = Encoding.UTF8.GetBytes(value);
            if (utf8.Length > maxLength)
            {
                continue;
            }

            Assert.Equal(OptionStatus.Ok, options.TrySet(option, utf8));

            var exact = new byte[utf8.Length + 1];
            Assert.Equal(OptionStatus.Ok, options.TryGet(option, exact, out int length));
            Assert.Equal(utf8.Length + 1, length);
            Assert.Equal([.. utf8, 0], exact);
            Assert.Equal(OptionStatus.InvalidArgument, options.TryGet(option, new byte[utf8.Length], out _));
            if (utf8.Length < 256)
            {
                Assert.Equal(value, options.GetText(option));
            }
        }
    }

    [Theory]
    [MemberData(nameof(LimitedStrings))]
    public void TrySet_StringOverLimit_ReturnsEinvalAndKeepsValue(int option, int maxLength)
    {
        var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);
        Assert.Equal(OptionStatus.Ok, options.SetText(option, "keep"));

        Assert.Equal(OptionStatus.InvalidArgument, options.TrySet(option, new byte[maxLength + 1]));
        Assert.Equal("keep", options.GetText(option));
    }

    [Fact]
    public void TrySet_ZapDomainEmpty_ReturnsEinvalAndKeepsValue()
    {
        // libzmq 4.3.4 refuses an empty ZAP domain, given as NULL or as an empty buffer alike.
        var options = new SocketOptions(SocketType.Rep, ipv6Default: false);
        Assert.Equal(OptionStatus.Ok, options.SetText(OptionId.ZapDomain, "keep"));

        Assert.Equal(OptionStatus.InvalidArgument, options.TrySet(OptionId.ZapDomain, []));
        Assert.Equal("keep", options.GetText(OptionId.ZapDomain));
    }

    [Fact]
    public void TypedReads_AfterSetText_ExposeTheValue()
    {
        var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);

        options.SetText(OptionId.ZapDomain, "domain");
        options.SetText(OptionId.PlainUsername, "user");
        options.SetText(OptionId.PlainPassword, "pass");
        options.SetText(OptionId.SocksProxy, "127.0.0.1:1080");
        options.SetText(OptionId.BindToDevice, "eth0");
        options.SetText(OptionId.SocksUsername, "socks-user");
        options.SetText(OptionId.SocksPassword, "socks-pass");

        Assert.Equal("domain"u8.ToArray(), options.ZapDomain.ToArray());
        Assert.Equal("user"u8.ToArray(), options.PlainUsername.ToArray());
        Assert.Equal("pass"u8.ToArray(), options.PlainPassword.ToArray());
        Assert.Equal("127.0.0.1:1080", options.SocksProxy);
        Assert.Equal("eth0", options.BindToDevice);
        Assert.Equal("socks-user"u8.ToArray(), options.SocksUsername.ToArray());
        Assert.Equal("socks-pass"u8.ToArray(), options.SocksPassword.ToArray());
    }

    [Fact]
    public void TryGet_RoutingIdDefault_IsEmpty()
    {
        var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);

        Assert.Equal(OptionStatus.Ok, options.TryGet(OptionId.RoutingId, [], out int length));
        Assert.Equal(0, length);
        Assert.True(options.RoutingId.IsEmpty);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(5)]
    [InlineData(255)]
    public void TrySet_RoutingId_ReadsBackExactBytes(int size)
    {
        var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);
        byte[] routingId = [.. Enumerable.Range(0, size).Select(i => (byte)i)]; // starts with a zero byte on purpose

        Assert.Equal(OptionStatus.Ok, options.TrySet(OptionId.RoutingId, routingId));

        Assert.Equal(routingId, options.GetBytes(OptionId.RoutingId, bufferLength: 256));
        Assert.Equal(routingId, options.GetBytes(OptionId.RoutingId, bufferLength: size));
        Assert.Equal(OptionStatus.InvalidArgument, options.TryGet(OptionId.RoutingId, new byte[size - 1], out _));
        Assert.Equal(routingId, options.RoutingId.ToArray());
    }

    [Theory]
    [InlineData(0)]
    [InlineData(256)]
    [InlineData(1000)]
    public void TrySet_RoutingIdBadLength_ReturnsEinvalAndKeepsValue(int size)
    {
        var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);
        Assert.Equal(OptionStatus.Ok, options.TrySet(OptionId.RoutingId, "id"u8));

        Assert.Equal(OptionStatus.InvalidArgument, options.TrySet(OptionId.RoutingId, new byte[size]));
        Assert.Equal("id"u8.ToArray(), options.GetBytes(OptionId.RoutingId));
    }

    [Theory]
    [InlineData(SocketType.Router)]
    [InlineData(SocketType.Stream)]
    public void TakeConnectRoutingId_AfterSet_ReturnsItOnce(SocketType socketType)
    {
        var options = new SocketOptions(socketType, ipv6Default: false);
        Assert.Null(options.TakeConnectRoutingId());

        Assert.Equal(OptionStatus.Ok, options.TrySet(OptionId.ConnectRoutingId, "peer-1"u8));

        Assert.Equal("peer-1"u8.ToArray(), options.TakeConnectRoutingId());
        Assert.Null(options.TakeConnectRoutingId());
    }

    [Theory]
    [InlineData(0)]
    [InlineData(256)]
    public void TrySet_ConnectRoutingIdBadLength_ReturnsEinval(int size)
    {
        var options = new SocketOptions(SocketType.Router, ipv6Default: false);

        Assert.Equal(OptionStatus.InvalidArgument, options.TrySet(OptionId.ConnectRoutingId, new byte[size]));
        Assert.Null(options.TakeConnectRoutingId());
    }

    [Fact]
    public void TrySet_ConnectRoutingId255Bytes_Accepted()
    {
        var options = new SocketOptions(SocketType.Router, ipv6Default: false);

        Assert.Equal(OptionStatus.Ok, options.TrySet(OptionId.ConnectRoutingId, new byte[255]));
        Assert.Equal(OptionStatus.InvalidArgument, options.TryGet(OptionId.ConnectRoutingId, new byte[256], out _));
    }

    [Fact]
    public void TrySet_XpubWelcomeMessage_StoresAndEmptyClears()
    {
        var options = new SocketOptions(SocketType.XPub, ipv6Default: false);
        Assert.Null(options.XpubWelcomeMessage);

        Assert.Equal(OptionStatus.Ok, options.TrySet(OptionId.XpubWelcomeMessage, "WELCOME"u8));
        Assert.Equal("WELCOME"u8.ToArray(), options.XpubWelcomeMessage);
        Assert.Equal(OptionStatus.InvalidArgument, options.TryGet(OptionId.XpubWelcomeMessage, new byte[256], out _));

        Assert.Equal(OptionStatus.Ok, options.TrySet(OptionId.XpubWelcomeMessage, []));
        Assert.Null(options.XpubWelcomeMessage);
    }

    [Fact]
    public void TrySet_ValueBufferReusedByCaller_DoesNotChangeStoredValue()
    {
        var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);
        byte[] routingId = "abc"u8.ToArray();

        options.TrySet(OptionId.RoutingId, routingId);
        routingId[0] = (byte)'z';

        Assert.Equal("abc"u8.ToArray(), options.GetBytes(OptionId.RoutingId));
    }

    [Fact]
    public void TypedReads_OctetsNotUtf8_AsSet()
    {
        // The credentials and the ZAP domain go on the wire as set, as libzmq sends them, not as text.
        byte[] octets = [0xE9, 0xFF, 0x80, 0x00];
        var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);
        foreach (int option in new[] { OptionId.ZapDomain, OptionId.PlainUsername, OptionId.PlainPassword, OptionId.SocksUsername, OptionId.SocksPassword })
        {
            Assert.Equal(OptionStatus.Ok, options.TrySet(option, octets));
        }

        Assert.Equal(octets, options.ZapDomain.ToArray());
        Assert.Equal(octets, options.PlainUsername.ToArray());
        Assert.Equal(octets, options.PlainPassword.ToArray());
        Assert.Equal(octets, options.SocksUsername.ToArray());
        Assert.Equal(octets, options.SocksPassword.ToArray());
    }
}
