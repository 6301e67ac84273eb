// PEER (docs/client-server.md): SERVER's routing on a socket that may also connect. ConnectPeer
// returns the new peer's routing id at once, so a message can be addressed before the connection is up.
using Managed.Zmq;

using var context = new Context();
using var node = new Socket(context, SocketType.Peer);
node.SetOption(SocketOption.Rcvtimeo, 5000);
node.Bind("tcp://127.0.0.1:*");
string endpoint = node.GetOptionString(SocketOption.Last_Endpoint);

using var peer = new Socket(context, SocketType.Peer);
peer.SetOption(SocketOption.Rcvtimeo, 5000);
uint other = peer.ConnectPeer(endpoint);   // before the connection is up
using var hello = new Message("hello") { RoutingId = other };
peer.Send(hello);                                         // queued until it is (up to Sndhwm)

// The bound node learns the connecting peer's id from the message and answers to it.
using var request = new Message();
node.Recv(request);
Console.WriteLine($"node got: {request} (from a peer it can answer by id)");
using var answer = new Message("hello back") { RoutingId = request.RoutingId };
node.Send(answer);

using var reply = new Message();
peer.Recv(reply);                                         // reply.RoutingId == other
Console.WriteLine($"peer got: {reply} (from the id ConnectPeer returned: {reply.RoutingId == other})");
