#if !INTEROP_WITHOUT_CORE
using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests;

/// <summary>
/// Binding and connecting an endpoint, the same text on a libzmq 4.3 socket and on ours: the same refusal (errno) or
/// the same success, and, where ours refuses an endpoint libzmq takes but can never use, exactly that difference
/// (docs/limitations.md).
/// </summary>
public sealed class EndpointParityTests
{
    /// <summary>A path of <paramref name="octets"/> octets (the limit is 107: sun_path holds 108 with the NUL).</summary>
    private static string IpcPath(int octets) => "/tmp/" + new string('p', octets - "/tmp/".Length);

    public static TheoryData<string> BindCases() => new()
    {
        "ipc://",
        "ipc://@",
        "ipc://" + IpcPath(108),
        "ipc://@" + new string('a', 107),
        "tcp://127.0.0.1",
        "tcp://:5555",
        "tcp://[::1]:*",
        "tcp://no-such-nic0.invalid:*",
        "tcp://a b:5555",
        "tcp://127.0.0.2:0;127.0.0.1:*",
        "tcp://127.0.0.2;127.0.0.1:*",
        "nosuch://x",
    };

    public static TheoryData<string> ConnectCases() => new()
    {
        "ipc://",
        "ipc://@",
        "ipc://" + IpcPath(108),
        "ipc://@" + new string('a', 107),
        "tcp://127.0.0.1",
        "tcp://127.0.0.1:*",
        "tcp://[::1]:*",
        "tcp://a b:5555",
        "tcp://_host:5555",
        "tcp://host:5555/",
        "tcp://*:0;127.0.0.1:5555",
        "ws://127.0.0.2:0;127.0.0.1:5555/",
        "nosuch://x",
    };

    /// <summary>
    /// Endpoints libzmq accepts at Connect but never connects to (no host, port 0, a source without a port, a source
    /// and no target): ours refuses them.
    /// </summary>
    public static TheoryData<string> ConnectRefusedHereOnly() => new()
    {
        "tcp://:5555",
        "tcp://127.0.0.1:0",
        "tcp://127.0.0.2;127.0.0.1:5555",
        "tcp://127.0.0.1:5555;",
    };

    [Theory, MemberData(nameof(BindCases))]
    public void Bind_Endpoint_SameOutcomeAsLibzmq(string endpoint)
    {
        var (theirs, ours) = Outcomes(SocketType.Router, endpoint, bind: true);

        Assert.Equal(theirs, ours);
    }

    [Theory, MemberData(nameof(ConnectCases))]
    public void Connect_Endpoint_SameOutcomeAsLibzmq(string endpoint)
    {
        var (theirs, ours) = Outcomes(SocketType.Dealer, endpoint, bind: false);

        Assert.NotEqual(0, theirs);
        Assert.Equal(theirs, ours);
    }

    [Theory, MemberData(nameof(ConnectRefusedHereOnly))]
    public void Connect_EndpointLibzmqCannotUse_RefusedHereWithEinval(string endpoint)
    {
        var (theirs, ours) = Outcomes(SocketType.Dealer, endpoint, bind: false);

        Assert.Equal(0, theirs);
        Assert.Equal(ZmqConstants.EINVAL, ours);
    }

    /// <summary>The errno of binding or connecting <paramref name="endpoint"/> on a libzmq socket and on ours (0: success).</summary>
    private static (int Theirs, int Ours) Outcomes(SocketType type, string endpoint, bool bind)
    {
        using var native = new NativeContext();
        using var theirSocket = native.Socket(type);
        theirSocket.SetOption(LibZmq.ZMQ_LINGER, 0);
        int theirs = Errno.OfNative(bind ? LibZmq.zmq_bind(theirSocket.Handle, endpoint) : LibZmq.zmq_connect(theirSocket.Handle, endpoint));
        using var context = new Context();
        using var ourSocket = new Socket(context, type);
        ourSocket.SetOption(SocketOption.Linger, 0);
        int ours = Errno.Of(() =>
        {
            if (bind)
            {
                ourSocket.Bind(endpoint);
            }
            else
            {
                ourSocket.Connect(endpoint);
            }
        });
        return (theirs, ours);
    }
}
#endif
