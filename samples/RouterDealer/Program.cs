// ROUTER/DEALER: an asynchronous server that knows who asked (docs/getting-started.md).
using Managed.Zmq;

using var context = new Context();

using var router = new Socket(context, SocketType.Router);
router.SetOption(SocketOption.Rcvtimeo, 5000);
router.SetOption(SocketOption.Router_Mandatory, 1); // a reply to an unknown peer throws EHOSTUNREACH instead of vanishing
router.Bind("tcp://127.0.0.1:*");
string endpoint = router.GetOptionString(SocketOption.Last_Endpoint);

foreach (string name in new[] { "alice", "bob" })
{
    using var dealer = new Socket(context, SocketType.Dealer);
    dealer.SetOption(SocketOption.Routing_Id, name); // else the ROUTER makes up an id
    dealer.SetOption(SocketOption.Rcvtimeo, 5000);
    dealer.Connect(endpoint);

    dealer.Send("what time is it?");

    // The ROUTER receives [routing id][body]: the id frame is how it addresses the reply.
    using (var request = router.RecvMultipart())
    {
        string who = request.PeekFirstString();
        Console.WriteLine($"router: '{request.PeekLastString()}' from {who}");
        router.SendMultipart(who, $"hello {who}, it is tea time");
    }

    Console.WriteLine($"{name}: {dealer.RecvString()}");
}
