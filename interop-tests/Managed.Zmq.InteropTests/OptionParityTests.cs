#if !INTEROP_WITHOUT_CORE
using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests;

/// <summary>
/// Setting and reading an option, the same call on a libzmq 4.3 socket and on ours: the same refusal (errno) or
/// the same value read back. These are the cases where the two differed (docs/options.md); the rest of the option
/// table is checked against libzmq's documented ranges in the unit tests.
/// </summary>
public sealed unsafe class OptionParityTests
{
    public static TheoryData<SocketType, SocketOption, int> IntegerCases() => new()
    {
        { SocketType.Sub, SocketOption.Conflate, 1 },
        { SocketType.Sub, SocketOption.Conflate, 2 },
        { SocketType.Sub, SocketOption.Conflate, -1 },
        { SocketType.Sub, SocketOption.Invert_Matching, 5 },
        { SocketType.Sub, SocketOption.Invert_Matching, -3 },
        { SocketType.Dealer, SocketOption.Heartbeat_Ttl, -50 },
        { SocketType.Dealer, SocketOption.Heartbeat_Ttl, -150 },
        { SocketType.Dealer, SocketOption.Heartbeat_Ttl, 6_553_599 },
        { SocketType.Dealer, SocketOption.Heartbeat_Ttl, 6_553_600 },
    };

    [Theory, MemberData(nameof(IntegerCases))]
    public void SetOption_Integer_SameOutcomeAsLibzmq(SocketType type, SocketOption option, int value)
    {
        using var native = new NativeContext();
        using var theirSocket = native.Socket(type);
        int set = value;
        int theirError = Errno.OfNative(LibZmq.zmq_setsockopt(theirSocket.Handle, (int)option, &set, sizeof(int)));
        int theirs;
        nuint size = sizeof(int);
        Assert.Equal(0, LibZmq.zmq_getsockopt(theirSocket.Handle, (int)option, &theirs, &size));

        using var context = new Context();
        using var ourSocket = new Socket(context, type);
        int ourError = Errno.Of(() => ourSocket.SetOption(option, value));
        int ours = ourSocket.GetOption<int>(option);

        Assert.Equal(theirError, ourError);
        Assert.Equal(theirs, ours);
    }

    /// <summary>
    /// libzmq's REP is built on its ROUTER and takes the ROUTER's options; ours refuses them on a REP with EINVAL
    /// (docs/limitations.md). This pins that difference, so a change to either side shows.
    /// </summary>
    [Theory]
    [InlineData(SocketOption.Router_Mandatory)]
    [InlineData(SocketOption.Router_Raw)]
    [InlineData(SocketOption.Probe_Router)]
    [InlineData(SocketOption.Router_Handover)]
    public void SetOption_RouterOptionOnRep_LibzmqTakesItOursRefuses(SocketOption option)
    {
        using var native = new NativeContext();
        using var theirSocket = native.Socket(SocketType.Rep);
        int one = 1;
        int theirError = Errno.OfNative(LibZmq.zmq_setsockopt(theirSocket.Handle, (int)option, &one, sizeof(int)));
        using var context = new Context();
        using var ourSocket = new Socket(context, SocketType.Rep);

        int ourError = Errno.Of(() => ourSocket.SetOption(option, 1));

        Assert.Equal(0, theirError);
        Assert.Equal(ZmqConstants.EINVAL, ourError);
    }

    /// <summary>Connect_Routing_Id is one of those ROUTER options: the same difference, pinned the same way.</summary>
    [Fact]
    public void SetOption_ConnectRoutingIdOnRep_LibzmqTakesItOursRefuses()
    {
        byte[] id = "rep-id"u8.ToArray();
        using var native = new NativeContext();
        using var theirSocket = native.Socket(SocketType.Rep);
        int theirError;
        fixed (byte* value = id)
        {
            theirError = Errno.OfNative(LibZmq.zmq_setsockopt(theirSocket.Handle, (int)SocketOption.Connect_Routing_Id, value, (nuint)id.Length));
        }

        using var context = new Context();
        using var ourSocket = new Socket(context, SocketType.Rep);

        int ourError = Errno.Of(() => ourSocket.SetOption(SocketOption.Connect_Routing_Id, id));

        Assert.Equal(0, theirError);
        Assert.Equal(ZmqConstants.EINVAL, ourError);
    }

    [Fact]
    public void SetOption_ZapDomainEmpty_RefusedAsLibzmq()
    {
        using var native = new NativeContext();
        using var theirSocket = native.Socket(SocketType.Rep);
        byte none = 0;
        int theirError = LibZmq.zmq_setsockopt(theirSocket.Handle, (int)SocketOption.Zap_Domain, &none, 0) == 0 ? 0 : LibZmq.zmq_errno();

        using var context = new Context();
        using var ourSocket = new Socket(context, SocketType.Rep);

        Assert.Equal(ZmqConstants.EINVAL, theirError);
        Assert.Equal(theirError, Errno.Of(() => ourSocket.SetOption(SocketOption.Zap_Domain, "")));
    }

    [Fact]
    public void AfterShutdown_OptionsUnbindAndDisconnect_RefusedAsLibzmq()
    {
        // libzmq refuses them once the socket has seen the shutdown, which a receive that fails with ETERM shows.
        int[] theirs;
        using (var native = new NativeContext())
        {
            using var pull = native.Socket(SocketType.Pull);
            string endpoint = pull.BindEphemeral();
            using var push = native.Socket(SocketType.Push);
            push.Connect(endpoint);
            Assert.Equal(0, LibZmq.zmq_ctx_shutdown(native.Handle));
            byte buffer = 0;
            Assert.Equal(-1, LibZmq.zmq_recv(pull.Handle, &buffer, 1, LibZmq.ZMQ_DONTWAIT));
            Assert.Equal(ZmqConstants.ETERM, LibZmq.zmq_errno());
            int linger = 0;
            nuint size = sizeof(int);
            theirs =
            [
                Errno.OfNative(LibZmq.zmq_setsockopt(pull.Handle, LibZmq.ZMQ_LINGER, &linger, sizeof(int))),
                Errno.OfNative(LibZmq.zmq_getsockopt(pull.Handle, LibZmq.ZMQ_LINGER, &linger, &size)),
                Errno.OfNative(LibZmq.zmq_unbind(pull.Handle, endpoint)),
                Errno.OfNative(LibZmq.zmq_disconnect(push.Handle, endpoint)),
            ];
        }

        int[] ours;
        using (var context = new Context())
        {
            using var pull = new Socket(context, SocketType.Pull);
            pull.SetOption(SocketOption.Linger, 0);
            pull.Bind("tcp://127.0.0.1:*");
            string endpoint = pull.GetOptionString(SocketOption.Last_Endpoint);
            using var push = new Socket(context, SocketType.Push);
            push.SetOption(SocketOption.Linger, 0);
            push.Connect(endpoint);
            context.Shutdown();
            Assert.Equal(ZmqConstants.ETERM, Errno.Of(() => pull.Recv(new byte[1], RecvFlags.DontWait)));
            ours =
            [
                Errno.Of(() => pull.SetOption(SocketOption.Linger, 0)),
                Errno.Of(() => pull.GetOption<int>(SocketOption.Linger)),
                Errno.Of(() => pull.Unbind(endpoint)),
                Errno.Of(() => push.Disconnect(endpoint)),
            ];
        }

        Assert.Equal([ZmqConstants.ETERM, ZmqConstants.ETERM, ZmqConstants.ETERM, ZmqConstants.ETERM], theirs);
        Assert.Equal(theirs, ours);
    }

}
#endif
