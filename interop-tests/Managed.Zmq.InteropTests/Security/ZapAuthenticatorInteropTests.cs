#if !INTEROP_WITHOUT_CORE
using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests.Security;

/// <summary>
/// Our server guarded by <see cref="ZapAuthenticator"/>, with libzmq clients: the PLAIN user table
/// and the CURVE key list admit the right libzmq client and refuse the other, which libzmq then
/// reports as HANDSHAKE_FAILED_AUTH with status 400 (the ERROR our server sent).
/// </summary>
public sealed class ZapAuthenticatorInteropTests
{
    [Theory]
    [InlineData(Mechanism.Plain, true)]
    [InlineData(Mechanism.Plain, false)]
    [InlineData(Mechanism.Curve, true)]
    [InlineData(Mechanism.Curve, false)]
    public Task Authenticator_LibzmqClient_AdmittedOrRefusedByItsRules(Mechanism mechanism, bool admitted) => Deadline.Run(() =>
    {
        using var context = new Context();
        using var auth = new ZapAuthenticator(context);
        var serverKeys = CurveKeys.New();
        var allowedKeys = CurveKeys.New();
        auth.ConfigurePlain("*", new Dictionary<string, string> { ["admin"] = "s3cret" });
        auth.ConfigureCurve("*", allowedKeys.PublicZ85);

        using var server = new Socket(context, SocketType.Pull);
        server.SetOption(SocketOption.Linger, 0);
        server.SetOption(SocketOption.Rcvtimeo, (int)Timeouts.Io.TotalMilliseconds);
        if (mechanism == Mechanism.Plain)
        {
            server.SetOption(SocketOption.Plain_Server, 1);
        }
        else
        {
            server.SetOption(SocketOption.Curve_Server, 1);
            server.SetOption(SocketOption.Curve_Secretkey, serverKeys.SecretZ85);
        }

        server.Bind("tcp://127.0.0.1:*");

        using var nativeContext = new NativeContext();
        using var client = nativeContext.Socket(SocketType.Push);
        client.SetOption(LibZmq.ZMQ_LINGER, 0);
        if (mechanism == Mechanism.Plain)
        {
            Secure.PlainClient(client, "admin", admitted ? "s3cret" : "guess");
        }
        else
        {
            Secure.CurveClient(client, admitted ? allowedKeys : CurveKeys.New(), serverKeys.PublicZ85);
        }

        using var events = client.Monitor(EventLog.HandshakeSucceeded | EventLog.HandshakeFailedAuth);
        client.Connect(server.GetOptionString(SocketOption.Last_Endpoint));

        var outcome = events.NextEventWithValue(Timeouts.Settle);
        Assert.NotNull(outcome);
        if (admitted)
        {
            Assert.Equal(EventLog.HandshakeSucceeded, outcome.Value.Event);
            client.SendMessage(Bytes.Of("payload"));
            Assert.Equal("payload", server.RecvString());
        }
        else
        {
            Assert.Equal((EventLog.HandshakeFailedAuth, 400), (outcome.Value.Event, outcome.Value.Value));
        }
    });
}
#endif
