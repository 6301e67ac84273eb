using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests;

/// <summary>
/// libzmq↔libzmq checks of the test binding itself, so that an interop failure can be blamed on
/// the core and not on the P/Invoke layer.
/// </summary>
public sealed class NativeBindingSelfCheckTests
{
    [Fact]
    public void LibZmq_Version_Is43()
    {
        LibZmq.zmq_version(out var major, out var minor, out _);
        Assert.Equal((4, 3), (major, minor));
    }

    [Fact]
    public Task LibZmq_PushPullOverTcp_MultipartRoundTrips() => Deadline.Run(() =>
    {
        using var context = new NativeContext();
        using var pull = context.Socket(SocketType.Pull);
        using var push = context.Socket(SocketType.Push);
        var endpoint = pull.BindEphemeral();
        Assert.Matches(@"^tcp://127\.0\.0\.1:\d+$", endpoint);
        push.Connect(endpoint);

        byte[][] message = [Bytes.Of("a"), [], Bytes.Pattern(256), Bytes.Pattern(1 << 20)];
        push.SendMessage(message);
        Bytes.Equal(message, pull.RecvMessage(), "libzmq PUSH→PULL");
    });

    [Fact]
    public Task LibZmq_TryRecvOnIdleSocket_ReturnsNullWithinTimeout() => Deadline.Run(() =>
    {
        using var context = new NativeContext();
        using var pull = context.Socket(SocketType.Pull);
        pull.BindEphemeral();
        var started = Environment.TickCount64;
        Assert.Null(pull.TryRecvMessage(TimeSpan.FromMilliseconds(50)));
        Assert.True(Environment.TickCount64 - started >= 40, "returned before its timeout");
    });

    [Fact]
    public Task LibZmq_RecvWithRcvtimeo_ThrowsEagainInsteadOfHanging() => Deadline.Run(() =>
    {
        using var context = new NativeContext();
        using var pull = context.Socket(SocketType.Pull);
        pull.SetOption(LibZmq.ZMQ_RCVTIMEO, 30);
        var error = Assert.Throws<NativeZmqException>(() => pull.RecvMessage());
        Assert.Equal(LibZmq.EAGAIN, error.Errno);
    });
}
