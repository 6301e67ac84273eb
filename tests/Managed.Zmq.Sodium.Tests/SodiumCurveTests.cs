namespace Managed.Zmq.Sodium.Tests;

/// <summary>
/// Installing the provider process-wide: CURVE connections made afterwards handshake with
/// libsodium's X25519 and carry traffic; uninstalling goes back to the managed one.
/// </summary>
public sealed class SodiumCurveTests
{
    [Fact]
    public void Install_CurveConnectionOverTcp_HandshakesAndDelivers()
    {
        SodiumCurve.Install();
        try
        {
            Assert.True(SodiumCurve.IsInstalled);
            var (serverPublic, serverSecret) = Curve.GenerateKeypair();
            var (clientPublic, clientSecret) = Curve.GenerateKeypair();
            using var context = new Context();
            using var server = new Socket(context, SocketType.Pull);
            server.SetOption(SocketOption.Linger, 0);
            server.SetOption(SocketOption.Rcvtimeo, 10_000);
            server.SetOption(SocketOption.Curve_Server, 1);
            server.SetOption(SocketOption.Curve_Secretkey, serverSecret);
            server.Bind("tcp://127.0.0.1:*");
            using var client = new Socket(context, SocketType.Push);
            client.SetOption(SocketOption.Linger, 0);
            client.SetOption(SocketOption.Curve_Serverkey, serverPublic);
            client.SetOption(SocketOption.Curve_Publickey, clientPublic);
            client.SetOption(SocketOption.Curve_Secretkey, clientSecret);
            client.Connect(server.GetOptionString(SocketOption.Last_Endpoint));

            client.Send("over libsodium's X25519");

            Assert.Equal("over libsodium's X25519", server.RecvString());
        }
        finally
        {
            SodiumCurve.Uninstall();
        }

        Assert.False(SodiumCurve.IsInstalled);
    }
}
