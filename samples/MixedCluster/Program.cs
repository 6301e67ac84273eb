// A mixed cluster: this C# node and a libzmq node (pyzmq, node.py) talk CURVE both ways, each
// side once the server and once the client (docs/mixed-clusters.md).
//   dotnet run --project samples/MixedCluster -- [python3 with pyzmq]
using System.Diagnostics;
using Managed.Zmq;

string python = args.Length > 0 ? args[0] : "python3";

using var context = new Context();

// 1. The C# node is a CURVE server: REP, admitting the libzmq node's key through ZAP.
var (serverPublic, serverSecret) = Curve.GenerateKeypair();
using var auth = new ZapAuthenticator(context);
using var server = new Socket(context, SocketType.Rep);
server.SetOption(SocketOption.Curve_Server, 1);
server.SetOption(SocketOption.Curve_Secretkey, serverSecret);
server.SetOption(SocketOption.Rcvtimeo, 10_000);
server.Bind("tcp://127.0.0.1:*");

var start = new ProcessStartInfo(python) { RedirectStandardInput = true, RedirectStandardOutput = true };
start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "node.py"));
start.ArgumentList.Add(server.GetOptionString(SocketOption.Last_Endpoint));
start.ArgumentList.Add(serverPublic);
using var node = Process.Start(start) ?? throw new InvalidOperationException($"cannot start {python}");

string nodePublic = ReadFromNode("PUBLIC");
auth.ConfigureCurve("*", nodePublic); // keys travel out of band; here, over the node's stdout
node.StandardInput.WriteLine("admitted");
node.StandardInput.Flush();

Console.WriteLine($"C# REP got: {server.RecvString()}");
server.Send("hello from Managed.Zmq");
Console.WriteLine($"libzmq REQ got: {ReadFromNode("REPLY")}");

// 2. The libzmq node is the CURVE server: its XPUB, our SUB as a CURVE client.
string publisher = ReadFromNode("PUB");
var (clientPublic, clientSecret) = Curve.GenerateKeypair();
using var subscriber = new Socket(context, SocketType.Sub);
subscriber.SetOption(SocketOption.Curve_Serverkey, nodePublic);
subscriber.SetOption(SocketOption.Curve_Publickey, clientPublic);
subscriber.SetOption(SocketOption.Curve_Secretkey, clientSecret);
subscriber.SetOption(SocketOption.Rcvtimeo, 10_000);
subscriber.Subscribe("status");
subscriber.Connect(publisher);
using (var update = subscriber.RecvMultipart())
{
    Console.WriteLine($"C# SUB got: {update.PeekFirstString()}: {update.PeekLastString()}");
}

node.StandardInput.WriteLine("done");
node.StandardInput.Flush();
if (!node.WaitForExit(10_000) || node.ExitCode != 0)
{
    throw new InvalidOperationException("the libzmq node did not end cleanly");
}

Console.WriteLine("mixed cluster: done");

string ReadFromNode(string tag)
{
    string line = node.StandardOutput.ReadLine() ?? throw new InvalidOperationException($"the libzmq node ended before '{tag}'");
    return line.StartsWith(tag + " ", StringComparison.Ordinal)
        ? line[(tag.Length + 1)..]
        : throw new InvalidOperationException($"expected '{tag} ...' from the libzmq node, got '{line}'");
}
