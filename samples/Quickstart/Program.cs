// The README's snippets, compiled and run as they are shown there.
using Managed.Zmq;

PushPull();
CurveServerAndClient();

static void PushPull()
{
using var context = new Context();
using var pull = new Socket(context, SocketType.Pull);
using var push = new Socket(context, SocketType.Push);

pull.Bind("tcp://127.0.0.1:*");                          // "*": an ephemeral port
push.Connect(pull.GetOptionString(SocketOption.Last_Endpoint));

push.Send("hello");
Console.WriteLine(pull.RecvString()); // hello

push.SendMultipart("job-42", "payload");
using var message = pull.RecvMultipart();
Console.WriteLine($"{message.Count} frames, first: {message.PeekFirstString()}");
}

static void CurveServerAndClient()
{
// Each side's long-term key pair (Z85 text); docs/security.md shows how to store them.
var (serverPublicKey, serverSecretKey) = Curve.GenerateKeypair();
var (clientPublicKey, clientSecretKey) = Curve.GenerateKeypair();

using var context = new Context();
using var auth = new ZapAuthenticator(context);        // serves inproc://zeromq.zap.01
auth.ConfigureCurve("*", clientPublicKey);             // admit this client; or auth.ConfigureCurveAllowAny()

using var server = new Socket(context, SocketType.Rep);
server.SetOption(SocketOption.Curve_Server, 1);
server.SetOption(SocketOption.Curve_Secretkey, serverSecretKey);
server.Bind("tcp://127.0.0.1:*");

using var client = new Socket(context, SocketType.Req);
client.SetOption(SocketOption.Curve_Serverkey, serverPublicKey); // whom the client trusts
client.SetOption(SocketOption.Curve_Publickey, clientPublicKey);
client.SetOption(SocketOption.Curve_Secretkey, clientSecretKey);
client.Connect(server.GetOptionString(SocketOption.Last_Endpoint));

client.Send("ping");
Console.WriteLine(server.RecvString()); // ping, decrypted
server.Send("pong");
Console.WriteLine(client.RecvString()); // pong
}
