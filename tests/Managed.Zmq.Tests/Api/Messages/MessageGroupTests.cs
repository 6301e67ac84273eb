namespace Managed.Zmq.Tests.Api.Messages;

/// <summary><see cref="Message.Group"/>: libzmq's zmq_msg_group and zmq_msg_set_group (RFC 48, libzmq 4.3.4's limits).</summary>
public sealed class MessageGroupTests
{
    [Fact]
    public void Group_NewMessage_IsEmpty()
    {
        using var message = new Message("x");

        Assert.Equal(string.Empty, message.Group);
    }

    [Theory]
    [InlineData("g")]
    [InlineData("weather/europe")]
    [InlineData("größe")]
    public void Group_Set_ReadsBack(string group)
    {
        using var message = new Message();

        message.Group = group;

        Assert.Equal(group, message.Group);
    }

    [Fact]
    public void Group_255Bytes_IsAccepted()
    {
        using var message = new Message();
        string group = new('a', 255);

        message.Group = group;

        Assert.Equal(group, message.Group);
    }

    [Theory]
    [InlineData(256)]
    [InlineData(4096)]
    public void Group_LongerThan255Bytes_ThrowsEinval(int length)
    {
        using var message = new Message();

        var ex = Assert.Throws<ZmqException>(() => message.Group = new string('a', length));

        Assert.Equal(ZmqConstants.EINVAL, ex.ErrorNumber);
    }

    [Fact]
    public void Group_128TwoByteCharacters_ThrowsEinvalOnUtf8Length()
    {
        using var message = new Message();

        // 128 characters but 256 bytes in UTF-8: the limit is libzmq's, in bytes.
        var ex = Assert.Throws<ZmqException>(() => message.Group = new string('ß', 128));

        Assert.Equal(ZmqConstants.EINVAL, ex.ErrorNumber);
    }

    [Fact]
    public void Group_WithNul_ThrowsEinval()
    {
        using var message = new Message();

        var ex = Assert.Throws<ZmqException>(() => message.Group = "a\0b");

        Assert.Equal(ZmqConstants.EINVAL, ex.ErrorNumber);
    }

    [Fact]
    public void Group_Null_ThrowsArgumentNull()
    {
        using var message = new Message();

        Assert.Throws<ArgumentNullException>(() => message.Group = null!);
    }

    [Fact]
    public void Group_Disposed_ThrowsNotInitialized()
    {
        var message = new Message();
        message.Dispose();

        Assert.Throws<InvalidOperationException>(() => message.Group);
    }

    [Fact]
    public void Copy_MessageWithGroup_CopiesTheGroup()
    {
        using var source = new Message("body");
        source.Group = "copied";
        source.RoutingId = 7;
        using var target = new Message();

        target.Copy(source);

        Assert.Equal("copied", target.Group);
        Assert.Equal(7u, target.RoutingId);
        Assert.Equal("copied", source.Group);
    }

    [Fact]
    public void Move_MessageWithGroup_MovesTheGroup()
    {
        using var source = new Message("body");
        source.Group = "moved";
        using var target = new Message();

        target.Move(source);

        Assert.Equal("moved", target.Group);
        Assert.Equal(string.Empty, source.Group);
    }

    [Fact]
    public void Group_SetEmptyAfterAGroup_IsEmpty()
    {
        using var message = new Message();
        message.Group = "first";

        message.Group = string.Empty;

        Assert.Equal(string.Empty, message.Group);
    }
}
