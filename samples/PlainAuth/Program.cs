// PLAIN: user name and password, checked by a ZapAuthenticator (docs/security.md).
// PLAIN sends the password in clear text: use it on a trusted network or inside a tunnel; else CURVE.
using Managed.Zmq;

const int HandshakeFailedAuth = 0x4000; // libzmq's ZMQ_EVENT_HANDSHAKE_FAILED_AUTH; value = ZAP status code

using var context = new Context();

// The authenticator answers the ZAP requests of every PLAIN or CURVE server of this context.
using var auth = new ZapAuthenticator(context);
auth.ConfigurePlain("*", new Dictionary<string, string> { ["admin"] = "correct horse" });

using var server = new Socket(context, SocketType.Rep);
server.SetOption(SocketOption.Plain_Server, 1);
server.SetOption(SocketOption.Rcvtimeo, 5000);
server.Bind("tcp://127.0.0.1:*");
string endpoint = server.GetOptionString(SocketOption.Last_Endpoint);

// A client with the right password.
using var client = new Socket(context, SocketType.Req);
client.SetOption(SocketOption.Plain_Username, "admin");
client.SetOption(SocketOption.Plain_Password, "correct horse");
client.SetOption(SocketOption.Rcvtimeo, 5000);
client.Connect(endpoint);
client.Send("status?");
Console.WriteLine($"server got: {server.RecvString()}");
server.Send("all good");
Console.WriteLine($"client got: {client.RecvString()}");

// A client with a wrong password: the handshake fails and nothing it sends is delivered. Its
// monitor reports why (HANDSHAKE_FAILED_AUTH with the ZAP status code).
using var intruder = new Socket(context, SocketType.Req);
intruder.SetOption(SocketOption.Plain_Username, "admin");
intruder.SetOption(SocketOption.Plain_Password, "guess");
intruder.Monitor("inproc://intruder-monitor", HandshakeFailedAuth);
using var monitor = new Socket(context, SocketType.Pair);
monitor.SetOption(SocketOption.Rcvtimeo, 5000);
monitor.Connect("inproc://intruder-monitor");
intruder.Connect(endpoint);

byte[] eventFrame = monitor.RecvBytes();
var refused = SocketMonitorEventData.Parse(eventFrame, monitor.RecvString());
Console.WriteLine($"intruder refused: event 0x{(int)refused.Event:X}, ZAP status {refused.Value}");
intruder.SetOption(SocketOption.Linger, 0);
