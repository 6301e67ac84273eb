namespace Managed.Zmq.Tests.Support;

/// <summary>CURVE on a pair of sockets: fresh key pairs, <c>server</c> as the CURVE server and <c>client</c> knowing its public key.</summary>
internal static class CurveKeys
{
    public static void Secure(Socket server, Socket client)
    {
        var (serverPublic, serverSecret) = Curve.GenerateKeypair();
        var (clientPublic, clientSecret) = Curve.GenerateKeypair();
        server.SetOption(SocketOption.Curve_Server, 1);
        server.SetOption(SocketOption.Curve_Secretkey, serverSecret);
        client.SetOption(SocketOption.Curve_Serverkey, serverPublic);
        client.SetOption(SocketOption.Curve_Publickey, clientPublic);
        client.SetOption(SocketOption.Curve_Secretkey, clientSecret);
    }
}
