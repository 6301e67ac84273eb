using System.Net;
using System.Net.Sockets;

namespace Managed.Zmq.Tests.Api.Contexts;

/// <summary>
/// Ending a context on a deadline: with LINGER -1 and a message nobody can receive, Dispose
/// (zmq_ctx_term) waits for ever; <see cref="Context.Terminate"/> with a timeout and ZMQ_BLOCKY = 0 do not.
/// </summary>
public sealed class ContextTerminateTests
{
    /// <summary>Only reached when termination hangs, which is the failure under test.</summary>
    private static readonly TimeSpan Hang = TimeSpan.FromSeconds(15);

    [Fact]
    public async Task Terminate_UndeliverableMessageWithInfiniteLinger_ReturnsFalse()
    {
        var context = new Context();
        QueueUndeliverable(context);

        bool delivered = await Task.Run(() => context.Terminate(TimeSpan.FromMilliseconds(100))).WaitAsync(Hang);

        Assert.False(delivered);
        Assert.Throws<ObjectDisposedException>(() => new Socket(context, SocketType.Push));
    }

    [Fact]
    public async Task Terminate_EverythingDelivered_ReturnsTrue()
    {
        var context = new Context();
        using (var pull = new Socket(context, SocketType.Pull))
        using (var push = new Socket(context, SocketType.Push))
        {
            pull.SetOption(SocketOption.Rcvtimeo, 5000);
            pull.Bind("tcp://127.0.0.1:*");
            push.Connect(pull.GetOptionString(SocketOption.Last_Endpoint));
            push.Send("x");
            Assert.Equal("x", pull.RecvString());
        }

        Assert.True(await Task.Run(() => context.Terminate(TimeSpan.FromSeconds(5))).WaitAsync(Hang));
    }

    [Fact]
    public async Task Dispose_BlockyOff_UndeliverableMessageDoesNotBlock()
    {
        var context = new Context();
        context.SetOption((ContextOption)70, 0);
        QueueUndeliverable(context);

        await Task.Run(context.Dispose).WaitAsync(Hang);
    }

    [Fact]
    public async Task Terminate_SocketDisposedAfterDeadline_DoesNotLinger()
    {
        var context = new Context();
        var push = new Socket(context, SocketType.Push);
        push.Connect(UnusedEndpoint());
        push.Send("x");
        var terminating = Task.Run(() => context.Terminate(TimeSpan.Zero));

        // Terminate waits for this socket; once disposed, its LINGER -1 must count as 0.
        push.Dispose();

        await terminating.WaitAsync(Hang);
    }

    [Fact]
    public void Terminate_NegativeTimeout_Throws()
    {
        using var context = new Context();

        Assert.Throws<ArgumentOutOfRangeException>(() => context.Terminate(TimeSpan.FromMilliseconds(-2)));
    }

    /// <summary>A PUSH with the default LINGER (-1) whose one message waits for a peer that never listens; disposed.</summary>
    private static void QueueUndeliverable(Context context)
    {
        using var push = new Socket(context, SocketType.Push);
        push.Connect(UnusedEndpoint());
        push.Send("nobody will take this");
    }

    private static string UnusedEndpoint() => Support.RefusedPort.TcpEndpoint();
}
