using System.Text;
using Managed.Zmq.Options;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Options;

/// <summary>
/// CURVE key forms (32 raw bytes, 40 Z85 characters, 41 with a NUL) and how the security options derive Mechanism and
/// the server role, as libzmq 4.3 does (docs/options.md, the security options; docs/security.md).
/// </summary>
public sealed class SocketOptionsSecurityTests
{
    public static TheoryData<int> KeyOptions => [OptionId.CurvePublicKey, OptionId.CurveSecretKey, OptionId.CurveServerKey];

    private static byte[] PublicKey => Convert.FromHexString(CurveKeyTextTests.ClientPublicHex);

    private static byte[] PublicKeyZ85 => Encoding.ASCII.GetBytes(CurveKeyTextTests.ClientPublicZ85);

    [Theory]
    [MemberData(nameof(KeyOptions))]
    public void TryGet_KeyDefault_IsZeros(int option)
    {
        var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);

        Assert.Equal(new byte[32], options.GetBytes(option, bufferLength: 32));
        Assert.Equal([.. Encoding.ASCII.GetBytes(new string('0', 40)), 0], options.GetBytes(option, bufferLength: 41));
    }

    [Theory]
    [MemberData(nameof(KeyOptions))]
    public void TrySet_KeyInEachForm_ReadsBackRawAndZ85(int option)
    {
        byte[][] forms = [PublicKey, PublicKeyZ85, [.. PublicKeyZ85, 0]];
        foreach (byte[] form in forms)
        {
            var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);

            Assert.Equal(OptionStatus.Ok, options.TrySet(option, form));

            Assert.Equal(PublicKey, options.GetBytes(option, bufferLength: 32));
            Assert.Equal([.. PublicKeyZ85, 0], options.GetBytes(option, bufferLength: 41));
        }
    }

    [Theory]
    [MemberData(nameof(KeyOptions))]
    public void TrySet_KeyWrongLengthOrText_ReturnsEinvalAndKeepsKey(int option)
    {
        var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);
        Assert.Equal(OptionStatus.Ok, options.TrySet(option, PublicKey));

        byte[][] invalid =
        [
            [], new byte[31], new byte[33], new byte[39], new byte[42], new byte[123],
            [.. PublicKeyZ85, (byte)'x'], // 41 bytes without the NUL
            [.. "~"u8, .. PublicKeyZ85.AsSpan(1)], // outside the Z85 alphabet
            [.. "#####"u8, .. PublicKeyZ85.AsSpan(5)], // a group above 2^32 - 1
        ];
        foreach (byte[] value in invalid)
        {
            Assert.Equal(OptionStatus.InvalidArgument, options.TrySet(option, value));
        }

        Assert.Equal(PublicKey, options.GetBytes(option, bufferLength: 32));
    }

    [Theory]
    [MemberData(nameof(KeyOptions))]
    public void TryGet_KeyBufferNeither32Nor41_ReturnsEinval(int option)
    {
        var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);

        foreach (int size in new[] { 0, 31, 33, 40, 42, 256 })
        {
            Assert.Equal(OptionStatus.InvalidArgument, options.TryGet(option, new byte[size], out int length));
            Assert.Equal(0, length);
        }
    }

    [Fact]
    public void KeyProperties_AfterSet_ExposeRawKeys()
    {
        var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);
        byte[] secret = Convert.FromHexString(CurveKeyTextTests.ClientSecretHex);

        options.TrySet(OptionId.CurvePublicKey, PublicKeyZ85);
        options.TrySet(OptionId.CurveSecretKey, Encoding.ASCII.GetBytes(CurveKeyTextTests.ClientSecretZ85));
        options.TrySet(OptionId.CurveServerKey, PublicKey);

        Assert.Equal(PublicKey, options.CurvePublicKey.ToArray());
        Assert.Equal(secret, options.CurveSecretKey.ToArray());
        Assert.Equal(PublicKey, options.CurveServerKey.ToArray());
    }

    /// <summary>
    /// Steps are <c>Name=value</c>: integers for the server flags, text for PLAIN credentials, "key" for a valid key.
    /// Expected: Mechanism, the raw reads of Plain_Server and Curve_Server, and <see cref="SocketOptions.AsServer"/>.
    /// </summary>
    [Theory]
    [InlineData(new string[0], 0, 0, 0, false)]
    [InlineData(new[] { "PlainServer=1" }, 1, 1, 0, true)]
    [InlineData(new[] { "PlainServer=1", "PlainServer=0" }, 0, 0, 0, false)]
    [InlineData(new[] { "PlainUsername=admin" }, 1, 0, 0, false)]
    [InlineData(new[] { "PlainPassword=secret" }, 1, 0, 0, false)]
    [InlineData(new[] { "PlainServer=1", "PlainUsername=admin" }, 1, 0, 0, false)]
    [InlineData(new[] { "PlainUsername=admin", "PlainUsername=" }, 0, 0, 0, false)]
    [InlineData(new[] { "PlainServer=1", "PlainPassword=" }, 0, 0, 0, false)]
    [InlineData(new[] { "CurveServer=1" }, 2, 0, 1, true)]
    [InlineData(new[] { "CurveServer=1", "CurveServer=0" }, 0, 0, 0, false)]
    [InlineData(new[] { "CurvePublicKey=key" }, 2, 0, 0, false)]
    [InlineData(new[] { "CurveSecretKey=key" }, 2, 0, 0, false)]
    [InlineData(new[] { "CurveServer=1", "CurveSecretKey=key", "CurvePublicKey=key" }, 2, 0, 1, true)]
    [InlineData(new[] { "CurveServer=1", "CurveServerKey=key" }, 2, 0, 0, false)]
    [InlineData(new[] { "CurveServerKey=key", "CurvePublicKey=key", "CurveSecretKey=key" }, 2, 0, 0, false)]
    [InlineData(new[] { "CurveServer=1", "PlainServer=1" }, 1, 1, 0, true)]
    [InlineData(new[] { "PlainServer=1", "CurveServer=1" }, 2, 0, 1, true)]
    [InlineData(new[] { "PlainServer=1", "CurvePublicKey=key" }, 2, 0, 1, true)]
    [InlineData(new[] { "CurveServer=1", "PlainUsername=admin" }, 1, 0, 0, false)]
    [InlineData(new[] { "CurveServer=1", "PlainServer=0" }, 0, 0, 0, false)]
    public void Mechanism_AfterSecuritySteps_DerivedAsLibzmq(string[] steps, int mechanism, int plainServer, int curveServer, bool asServer)
    {
        var options = new SocketOptions(SocketType.Rep, ipv6Default: false);
        foreach (string step in steps)
        {
            Assert.Equal(OptionStatus.Ok, Apply(options, step));
        }

        Assert.Equal(mechanism, options.GetInt32(OptionId.Mechanism));
        Assert.Equal(mechanism, MechanismNumbers.ToOptionValue(options.Mechanism));
        Assert.Equal(plainServer, options.GetInt32(OptionId.PlainServer));
        Assert.Equal(curveServer, options.GetInt32(OptionId.CurveServer));
        Assert.Equal(asServer, options.AsServer);
    }

    [Fact]
    public void TrySet_InvalidSecurityValue_LeavesMechanismAlone()
    {
        var options = new SocketOptions(SocketType.Rep, ipv6Default: false);
        Assert.Equal(OptionStatus.Ok, options.SetInt32(OptionId.PlainServer, 1));

        Assert.Equal(OptionStatus.InvalidArgument, options.TrySet(OptionId.CurveServerKey, new byte[31]));
        Assert.Equal(OptionStatus.InvalidArgument, options.SetInt32(OptionId.CurveServer, 2));
        Assert.Equal(OptionStatus.InvalidArgument, options.TrySet(OptionId.PlainUsername, new byte[256]));

        Assert.Equal(ZmtpMechanism.Plain, options.Mechanism);
        Assert.True(options.AsServer);
    }

    [Fact]
    public void TrySet_Mechanism_IsReadOnly()
    {
        var options = new SocketOptions(SocketType.Rep, ipv6Default: false);

        Assert.Equal(OptionStatus.InvalidArgument, options.SetInt32(OptionId.Mechanism, 1));
        Assert.Equal(ZmtpMechanism.Null, options.Mechanism);
    }

    [Fact]
    public void TrySet_EmptyPlainUsername_ClearsStoredValue()
    {
        var options = new SocketOptions(SocketType.Req, ipv6Default: false);
        options.SetText(OptionId.PlainUsername, "admin");

        Assert.Equal(OptionStatus.Ok, options.TrySet(OptionId.PlainUsername, []));

        Assert.Equal(string.Empty, options.GetText(OptionId.PlainUsername));
        Assert.True(options.PlainUsername.IsEmpty);
    }

    private static int Apply(SocketOptions options, string step)
    {
        string[] parts = step.Split('=', 2);
        int option = parts[0] switch
        {
            "PlainServer" => OptionId.PlainServer,
            "PlainUsername" => OptionId.PlainUsername,
            "PlainPassword" => OptionId.PlainPassword,
            "CurveServer" => OptionId.CurveServer,
            "CurvePublicKey" => OptionId.CurvePublicKey,
            "CurveSecretKey" => OptionId.CurveSecretKey,
            "CurveServerKey" => OptionId.CurveServerKey,
            _ => throw new ArgumentException($"Unknown step {step}", nameof(step)),
        };

        return SocketOptions.GetKind(option) switch
        {
            OptionKind.Int32 => options.SetInt32(option, int.Parse(parts[1], System.Globalization.CultureInfo.InvariantCulture)),
            OptionKind.CurveKey => options.TrySet(option, PublicKeyZ85),
            _ => options.SetText(option, parts[1]),
        };
    }
}
