namespace Managed.Zmq.Tests.Api.Messages;

/// <summary><see cref="Message.RoutingId"/>: libzmq's zmq_msg_routing_id and zmq_msg_set_routing_id (RFC 41).</summary>
public sealed class MessageRoutingIdTests
{
    [Fact]
    public void RoutingId_NewMessage_IsZero()
    {
        using var message = new Message("x");

        Assert.Equal(0u, message.RoutingId);
    }

    [Fact]
    public void RoutingId_Set_ReadsBack()
    {
        using var message = new Message();

        message.RoutingId = uint.MaxValue;

        Assert.Equal(uint.MaxValue, message.RoutingId);
    }

    [Fact]
    public void RoutingId_SetZero_ThrowsEinval()
    {
        using var message = new Message();

        var ex = Assert.Throws<ZmqException>(() => message.RoutingId = 0);
        Assert.Equal(ZmqConstants.EINVAL, ex.ErrorNumber);
    }

    [Fact]
    public void RoutingId_Disposed_ThrowsNotInitialized()
    {
        var message = new Message();
        message.Dispose();

        Assert.Throws<InvalidOperationException>(() => message.RoutingId);
    }

    [Fact]
    public void Copy_WithRoutingId_CopiesIt()
    {
        using var source = new Message("x") { RoutingId = 7 };
        using var copy = new Message();

        copy.Copy(source);

        Assert.Equal(7u, copy.RoutingId);
        Assert.Equal(7u, source.RoutingId);
    }

    [Fact]
    public void Move_WithRoutingId_MovesIt()
    {
        using var source = new Message("x") { RoutingId = 9 };
        using var target = new Message();

        target.Move(source);

        Assert.Equal(9u, target.RoutingId);
        Assert.Equal(0u, source.RoutingId);
    }

    [Fact]
    public void SocketType_DraftTypes_HaveLibzmqNumbers()
    {
        // zmq.h's draft section: ZMQ_SERVER 12, ZMQ_CLIENT 13.
        Assert.Equal(12, (int)SocketType.Server);
        Assert.Equal(13, (int)SocketType.Client);
    }

    [Theory]
    [InlineData(SocketType.Server, 1)]
    [InlineData(SocketType.Client, 1)]
    [InlineData(SocketType.Dealer, 0)]
    public void ThreadSafeOption_DraftTypes_ReadOne(SocketType type, int expected)
    {
        using var context = new Context();
        using var socket = new Socket(context, type);

        Assert.Equal(expected, socket.GetOption<int>(SocketOption.Thread_Safe));
    }
}
