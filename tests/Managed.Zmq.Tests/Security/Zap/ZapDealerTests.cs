using Managed.Zmq.Sockets;

namespace Managed.Zmq.Tests.Security.Zap;

/// <summary>
/// The socket layer's way to the ZAP handler: a channel closed with its request unsent (its connection went, or the
/// handler went before the request could be taken) leaves nothing in the context for a handler bound later.
/// </summary>
public sealed class ZapDealerTests
{
    [Fact]
    public void Dispose_RequestQueuedWithNoHandler_NothingKeptInContext()
    {
        using var context = new Context();
        var zap = new ZapDealer(context);
        Assert.False(zap.IsHandlerBound);

        using (var channel = zap.Open(static () => { }))
        {
            Assert.True(channel.TrySend(default, more: true));
            Assert.True(channel.TrySend("1.0"u8, more: false));
            Assert.Equal(1, context.Inproc.PendingNameCount);
        }

        Assert.Equal(0, context.Inproc.PendingNameCount);
    }
}
