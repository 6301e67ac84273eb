// CLIENT/SERVER: one SERVER shared by three threads at once, answering two CLIENTs by routing id
// (docs/client-server.md).
using Managed.Zmq;

using var context = new Context();

using var server = new Socket(context, SocketType.Server);
server.SetOption(SocketOption.Rcvtimeo, 5000); // a worker fails after 5 s of silence instead of waiting forever
server.Bind("tcp://127.0.0.1:*"); // "*": an ephemeral port; Last_Endpoint says which
string endpoint = server.GetOptionString(SocketOption.Last_Endpoint);

// Three threads receive and reply on the one SERVER at the same time, with no lock of their own:
// SERVER and CLIENT are thread-safe (a classic socket such as ROUTER must stay on one thread).
// Each thread stops at the first "stop" it receives.
int answered = 0;
var workers = new Thread[3];
for (int w = 0; w < workers.Length; w++)
{
    workers[w] = new Thread(() =>
    {
        while (true)
        {
            using var request = new Message();
            server.Recv(request); // request.RoutingId names the CLIENT connection it came from
            string text = request.ToString();
            if (text == "stop")
            {
                return;
            }

            using var reply = new Message($"{text} done");
            reply.RoutingId = request.RoutingId; // the reply goes back to that CLIENT
            server.Send(reply);
            Interlocked.Increment(ref answered);
        }
    });
    workers[w].Start();
}

using var alice = new Socket(context, SocketType.Client);
using var bob = new Socket(context, SocketType.Client);
foreach (var client in new[] { alice, bob })
{
    client.SetOption(SocketOption.Rcvtimeo, 5000); // Recv throws EAGAIN after 5 s instead of waiting forever
    client.Connect(endpoint);
}

for (int i = 0; i < 3; i++)
{
    alice.Send($"alice job {i}");
    bob.Send($"bob job {i}");
}

PrintReplies(alice, "alice");
PrintReplies(bob, "bob");

// One "stop" per worker: each worker takes exactly one and ends.
for (int w = 0; w < workers.Length; w++)
{
    alice.Send("stop");
}

foreach (var worker in workers)
{
    worker.Join();
}

Console.WriteLine($"server: {answered} requests answered by {workers.Length} threads");

// Each CLIENT gets exactly its own replies; the three workers may finish them in any order, so sort.
static void PrintReplies(Socket client, string name)
{
    var replies = new List<string>();
    for (int i = 0; i < 3; i++)
    {
        replies.Add(client.RecvString());
    }

    replies.Sort(StringComparer.Ordinal);
    foreach (string reply in replies)
    {
        Console.WriteLine($"{name} got: {reply}");
    }
}
