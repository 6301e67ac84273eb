
using Managed.Zmq.Options;

namespace Managed.Zmq.Tests.Options;

/// <summary>
/// Socket-type restrictions, values the socket computes, subscription actions and option numbers this build does not
/// have. All misuse is EINVAL, as in libzmq.
/// </summary>
public sealed class SocketOptionsAccessTests
{
    private static readonly SocketType[] s_allTypes = Enum.GetValues<SocketType>();

    /// <summary>Option, a valid value, and the socket types that accept it; libzmq refuses it with EINVAL on any other (docs/options.md).</summary>
    public static TheoryData<int, byte[], SocketType[]> Restricted => new()
    {
        { OptionId.RouterMandatory, Int32(1), [SocketType.Router] },
        { OptionId.RouterRaw, Int32(1), [SocketType.Router] },
        { OptionId.RouterHandover, Int32(1), [SocketType.Router] },
        { OptionId.ConnectRoutingId, "peer"u8.ToArray(), [SocketType.Router, SocketType.Stream] },
        { OptionId.ProbeRouter, Int32(1), [SocketType.Router, SocketType.Dealer, SocketType.Req] },
        { OptionId.ReqCorrelate, Int32(1), [SocketType.Req] },
        { OptionId.ReqRelaxed, Int32(1), [SocketType.Req] },
        { OptionId.XpubVerbose, Int32(1), [SocketType.XPub, SocketType.Pub] },
        { OptionId.XpubVerboser, Int32(1), [SocketType.XPub, SocketType.Pub] },
        { OptionId.XpubNodrop, Int32(1), [SocketType.XPub, SocketType.Pub, SocketType.Radio] },
        { OptionId.XpubManual, Int32(1), [SocketType.XPub, SocketType.Pub] },
        { OptionId.XpubWelcomeMessage, "hi"u8.ToArray(), [SocketType.XPub, SocketType.Pub] },
        { OptionId.StreamNotify, Int32(0), [SocketType.Stream] },
        { OptionId.Subscribe, "topic"u8.ToArray(), [SocketType.Sub] },
        { OptionId.Unsubscribe, "topic"u8.ToArray(), [SocketType.Sub] },
    };

    /// <summary>Numbers with no socket option behind them: GSSAPI and VMCI (not built), Blocky (a context option), gaps, drafts.</summary>
    public static TheoryData<int> Unsupported =>
    [
        62, 63, 64, 65, 70, 85, 86, 87, 88, 90, 91,
        -1, 0, 1, 2, 3, 10, 20, 26, 29, 30, 31, 38, 58, 59, 60, 67, 82, 83, 93, 94, 101, int.MaxValue, int.MinValue,
    ];

    public static TheoryData<int> WideComputed => [OptionId.ReceiveMore, OptionId.Fd, OptionId.Events];

    [Theory]
    [MemberData(nameof(Restricted))]
    public void TrySet_EachSocketType_AcceptedOnlyByListedTypes(int option, byte[] value, SocketType[] allowed)
    {
        foreach (SocketType socketType in s_allTypes)
        {
            var options = new SocketOptions(socketType, ipv6Default: false);

            int status = options.TrySet(option, value);

            if (allowed.Contains(socketType))
            {
                Assert.True(status is OptionStatus.Ok or OptionStatus.HandledBySocket, $"{socketType}: {status}");
            }
            else
            {
                Assert.True(status == OptionStatus.InvalidArgument, $"{socketType}: {status}");
            }
        }
    }

    [Theory]
    [MemberData(nameof(Unsupported))]
    public void TrySetAndTryGet_UnsupportedOption_ReturnEinval(int option)
    {
        var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);

        Assert.Equal(OptionKind.Unsupported, SocketOptions.GetKind(option));
        foreach (int width in new[] { 0, 4, 8, 32, 255 })
        {
            Assert.Equal(OptionStatus.InvalidArgument, options.TrySet(option, new byte[width]));
            Assert.Equal(OptionStatus.InvalidArgument, options.TryGet(option, new byte[width], out int length));
            Assert.Equal(0, length);
        }
    }

    [Theory]
    [MemberData(nameof(WideComputed))]
    public void TryGet_SocketComputedInteger_HandledBySocketForFourBytesOrMore(int option)
    {
        var options = new SocketOptions(SocketType.Pull, ipv6Default: false);

        Assert.Equal(OptionKind.Computed, SocketOptions.GetKind(option));
        Assert.Equal(OptionStatus.HandledBySocket, options.TryGet(option, new byte[4], out _));
        Assert.Equal(OptionStatus.HandledBySocket, options.TryGet(option, new byte[8], out _));
        Assert.Equal(OptionStatus.InvalidArgument, options.TryGet(option, new byte[3], out _));
        Assert.Equal(OptionStatus.InvalidArgument, options.TryGet(option, [], out _));
    }

    [Theory]
    [MemberData(nameof(WideComputed))]
    [InlineData(OptionId.LastEndpoint)]
    public void TrySet_SocketComputedOption_ReturnsEinval(int option)
    {
        var options = new SocketOptions(SocketType.Pull, ipv6Default: false);

        Assert.Equal(OptionStatus.InvalidArgument, options.TrySet(option, new byte[4]));
        Assert.Equal(OptionStatus.InvalidArgument, options.TrySet(option, new byte[8]));
        Assert.Equal(OptionStatus.InvalidArgument, options.TrySet(option, "tcp://127.0.0.1:5555"u8));
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(256)]
    public void TryGet_LastEndpoint_HandledBySocketWhateverTheBuffer(int bufferLength)
    {
        var options = new SocketOptions(SocketType.Rep, ipv6Default: false);

        Assert.Equal(OptionKind.Computed, SocketOptions.GetKind(OptionId.LastEndpoint));
        Assert.Equal(OptionStatus.HandledBySocket, options.TryGet(OptionId.LastEndpoint, new byte[bufferLength], out _));
    }

    [Theory]
    [InlineData(OptionId.Subscribe)]
    [InlineData(OptionId.Unsubscribe)]
    public void TrySet_SubscriptionOnSub_HandledBySocketForAnyPrefix(int option)
    {
        var options = new SocketOptions(SocketType.Sub, ipv6Default: false);

        Assert.Equal(OptionKind.Action, SocketOptions.GetKind(option));
        Assert.Equal(OptionStatus.HandledBySocket, options.TrySet(option, []));
        Assert.Equal(OptionStatus.HandledBySocket, options.TrySet(option, "A"u8));
        Assert.Equal(OptionStatus.HandledBySocket, options.TrySet(option, new byte[1000]));
        Assert.Equal(OptionStatus.InvalidArgument, options.TryGet(option, new byte[256], out _));
    }

    [Theory]
    [InlineData(OptionId.Subscribe)]
    [InlineData(OptionId.Unsubscribe)]
    public void TrySet_SubscriptionOnXPub_NeedsXpubManual(int option)
    {
        var options = new SocketOptions(SocketType.XPub, ipv6Default: false);
        Assert.Equal(OptionStatus.InvalidArgument, options.TrySet(option, "A"u8));

        Assert.Equal(OptionStatus.Ok, options.SetInt32(OptionId.XpubManual, 1));
        Assert.True(options.XpubManual);
        Assert.Equal(OptionStatus.HandledBySocket, options.TrySet(option, "A"u8));

        Assert.Equal(OptionStatus.Ok, options.SetInt32(OptionId.XpubManual, 0));
        Assert.Equal(OptionStatus.InvalidArgument, options.TrySet(option, "A"u8));
    }

    [Fact]
    public void TrySet_SubscriptionOnPubWithXpubManual_ReturnsEinval()
    {
        var options = new SocketOptions(SocketType.Pub, ipv6Default: false);
        Assert.Equal(OptionStatus.Ok, options.SetInt32(OptionId.XpubManual, 1));

        Assert.Equal(OptionStatus.InvalidArgument, options.TrySet(OptionId.Subscribe, "A"u8));
    }

    [Fact]
    public void GetKind_EveryNamedOption_MatchesSection7()
    {
        var expected = new Dictionary<int, OptionKind>
        {
            [OptionId.Affinity] = OptionKind.Int64,
            [OptionId.MaxMessageSize] = OptionKind.Int64,
            [OptionId.RoutingId] = OptionKind.Bytes,
            [OptionId.ConnectRoutingId] = OptionKind.Bytes,
            [OptionId.XpubWelcomeMessage] = OptionKind.Bytes,
            [OptionId.Subscribe] = OptionKind.Action,
            [OptionId.Unsubscribe] = OptionKind.Action,
            [OptionId.ReceiveMore] = OptionKind.Computed,
            [OptionId.Fd] = OptionKind.Computed,
            [OptionId.Events] = OptionKind.Computed,
            [OptionId.LastEndpoint] = OptionKind.Computed,
            [OptionId.PlainUsername] = OptionKind.String,
            [OptionId.PlainPassword] = OptionKind.String,
            [OptionId.ZapDomain] = OptionKind.String,
            [OptionId.SocksProxy] = OptionKind.String,
            [OptionId.SocksUsername] = OptionKind.String,
            [OptionId.SocksPassword] = OptionKind.String,
            [OptionId.BindToDevice] = OptionKind.String,
            [OptionId.CurvePublicKey] = OptionKind.CurveKey,
            [OptionId.CurveSecretKey] = OptionKind.CurveKey,
            [OptionId.CurveServerKey] = OptionKind.CurveKey,
            [OptionId.Metadata] = OptionKind.ApplicationProperty,
            [OptionId.WssKeyPem] = OptionKind.Bytes,
            [OptionId.WssCertPem] = OptionKind.Bytes,
            [OptionId.WssTrustPem] = OptionKind.Bytes,
            [OptionId.WssHostname] = OptionKind.Bytes,
        };
        foreach (IntegerOptionCase row in IntegerOptionCases.All.Where(c => c.Width == sizeof(int)))
        {
            expected[row.Option] = OptionKind.Int32;
        }

        expected[OptionId.Type] = OptionKind.Int32;

        for (int option = -1; option <= OptionId.Count; option++)
        {
            OptionKind kind = expected.TryGetValue(option, out OptionKind named) ? named : OptionKind.Unsupported;
            Assert.True(kind == SocketOptions.GetKind(option), $"option {option}: expected {kind}, got {SocketOptions.GetKind(option)}");
        }
    }

    private static byte[] Int32(int value)
    {
        var bytes = new byte[sizeof(int)];
        OptionValue.WriteInt32(bytes, value);
        return bytes;
    }
}
