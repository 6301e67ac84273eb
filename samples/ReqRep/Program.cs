// REQ/REP: a client asks, a server answers, in lock step (docs/getting-started.md).
using Managed.Zmq;

using var context = new Context();

using var server = new Socket(context, SocketType.Rep);
server.Bind("tcp://127.0.0.1:*"); // "*": an ephemeral port; Last_Endpoint says which
string endpoint = server.GetOptionString(SocketOption.Last_Endpoint);

var serverThread = new Thread(() =>
{
    for (int i = 0; i < 3; i++)
    {
        string request = server.RecvString(); // a REP must answer before it can receive again
        server.Send($"{request} -> world {i}");
    }
});
serverThread.Start();

using var client = new Socket(context, SocketType.Req);
client.SetOption(SocketOption.Rcvtimeo, 5000); // Recv throws EAGAIN after 5 s instead of waiting forever
client.Connect(endpoint);
for (int i = 0; i < 3; i++)
{
    client.Send($"hello {i}");
    Console.WriteLine(client.RecvString());
}

serverThread.Join();
