using System.Text;
using Managed.Zmq.Wire;
using Managed.Zmq.Options;

namespace Managed.Zmq.Tests.Options;

/// <summary>
/// The Metadata option (libzmq's ZMQ_METADATA), with the rules libzmq 4.3.4 applies (checked through its
/// zmq_setsockopt): "X-name:value", name prefix "X-" case-sensitive, write-only, first value of a name kept.
/// </summary>
public sealed class SocketOptionsApplicationMetadataTests
{
    [Theory]
    [InlineData("X-foo:bar")]
    [InlineData("X-ab:b")]
    [InlineData("X-Name:a:b")]
    public void TrySet_XName_Accepted(string value)
    {
        var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);

        Assert.Equal(OptionStatus.Ok, options.TrySet(OptionId.Metadata, Encoding.UTF8.GetBytes(value)));
        Assert.NotEmpty(options.ApplicationMetadata);
    }

    [Theory]
    [InlineData("x-foo:bar")]
    [InlineData("Foo:bar")]
    [InlineData("X-a:")]
    [InlineData(":b")]
    [InlineData("X-:b")] // four bytes: libzmq takes that length for an integer and refuses it
    [InlineData("X-foo")]
    [InlineData("")]
    public void TrySet_InvalidProperty_ReturnsEinvalAndAddsNothing(string value)
    {
        var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);

        Assert.Equal(OptionStatus.InvalidArgument, options.TrySet(OptionId.Metadata, Encoding.UTF8.GetBytes(value)));
        Assert.Empty(options.ApplicationMetadata);
    }

    [Fact]
    public void TrySet_NameOver255Bytes_ReturnsEinval()
    {
        var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);
        string name = "X-" + new string('n', 254);

        Assert.Equal(OptionStatus.InvalidArgument, options.TrySet(OptionId.Metadata, Encoding.UTF8.GetBytes(name + ":v")));
        Assert.Equal(OptionStatus.Ok, options.TrySet(OptionId.Metadata, Encoding.UTF8.GetBytes(name[..^1] + ":v")));
    }

    [Fact]
    public void TryGet_Metadata_WriteOnlyEinval()
    {
        var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);
        options.TrySet(OptionId.Metadata, "X-a:b"u8);

        Assert.Equal(OptionStatus.InvalidArgument, options.TryGet(OptionId.Metadata, new byte[256], out int length));
        Assert.Equal(0, length);
    }

    [Fact]
    public void TrySet_SeveralProperties_EncodedInNameOrderFirstValueKept()
    {
        var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);

        options.TrySet(OptionId.Metadata, "X-b:2"u8);
        options.TrySet(OptionId.Metadata, "X-a:1"u8);
        Assert.Equal(OptionStatus.Ok, options.TrySet(OptionId.Metadata, "X-b:3"u8));

        byte[] expected = new byte[ZmtpMetadata.GetPropertyLength(3, 1) * 2];
        int written = ZmtpMetadata.WriteProperty(expected, "X-a"u8, "1"u8);
        ZmtpMetadata.WriteProperty(expected.AsSpan(written), "X-b"u8, "2"u8);
        Assert.Equal(expected, options.ApplicationMetadata);
    }

    [Fact]
    public void Clone_AfterLaterSet_KeepsItsProperties()
    {
        var options = new SocketOptions(SocketType.Dealer, ipv6Default: false);
        options.TrySet(OptionId.Metadata, "X-a:1"u8);
        var snapshot = options.Clone();

        options.TrySet(OptionId.Metadata, "X-b:2"u8);

        Assert.Equal(ZmtpMetadata.GetPropertyLength(3, 1), snapshot.ApplicationMetadata.Length);
        Assert.Equal(ZmtpMetadata.GetPropertyLength(3, 1) * 2, options.ApplicationMetadata.Length);
    }
}
