// A ROUTER server that watches its peers (docs/observability.md): every second it prints each peer
// with its queue depths, and drops the slowest one when its outbound queue passes a threshold.
// Usage: PeerMonitor [seconds]   (runs for ever without an argument)
using System.Diagnostics.Metrics;
using System.Globalization;
using System.Text;
using Managed.Zmq;

int seconds = args.Length > 0 ? int.Parse(args[0], CultureInfo.InvariantCulture) : int.MaxValue;
const int DropThreshold = 100;  // messages queued to one peer before it counts as too slow
const int BurstPerTick = 200;   // messages the server sends each peer every second
var payload = new byte[16 * 1024];

// Metrics: a MeterListener on the library's meter (OpenTelemetry or dotnet-counters would do the same).
long dropped = 0;
using var listener = new MeterListener();
listener.InstrumentPublished = (instrument, l) =>
{
    if (instrument.Meter.Name == "Managed.Zmq" && instrument.Name == "zmq.socket.messages.dropped")
    {
        l.EnableMeasurementEvents(instrument);
    }
};
listener.SetMeasurementEventCallback<long>((_, value, _, _) => Interlocked.Add(ref dropped, value));
listener.Start();

using var context = new Context();
using var server = new Socket(context, SocketType.Router);
server.SetOption(SocketOption.Sndbuf, 64 * 1024);  // a small kernel buffer, so a slow peer shows in its queue soon
server.Bind("tcp://127.0.0.1:*");
string endpoint = server.GetOptionString(SocketOption.Last_Endpoint);

// Two clients in this process: "fast" reads everything, "slow" reads nothing.
using var fast = Client(context, "fast", endpoint);
using var slow = Client(context, "slow", endpoint);
using var stop = new CancellationTokenSource();
var reader = Task.Run(() =>
{
    using var frame = new Message();
    fast.SetOption(SocketOption.Rcvtimeo, 100);
    while (!stop.IsCancellationRequested)
    {
        try
        {
            fast.Recv(frame);
        }
        catch (ZmqException e) when (e.ErrorNumber == ZmqConstants.EAGAIN)
        {
        }
    }
});

while (server.GetPeers().Count < 2)
{
    Thread.Sleep(10);
}

for (int tick = 1; tick <= seconds; tick++)
{
    foreach (PeerInfo peer in server.GetPeers())
    {
        for (int i = 0; i < BurstPerTick; i++)
        {
            // At a peer's HWM a ROUTER drops what it cannot queue (zmq.socket.messages.dropped counts it).
            server.Send(peer.RoutingId.Span, SendFlags.SendMore);
            server.Send(payload);
        }
    }

    Thread.Sleep(1000);

    IReadOnlyList<PeerInfo> peers = server.GetPeers();
    PeerInfo? slowest = null;
    foreach (PeerInfo peer in peers)
    {
        Console.WriteLine(
            $"peer {Encoding.UTF8.GetString(peer.RoutingId.Span)} at {peer.RemoteEndpoint}: " +
            $"out {peer.OutboundQueuedMessages}/{peer.SendHwm} messages ({peer.OutboundQueuedBytes} B), " +
            $"in {peer.InboundQueuedMessages}/{peer.ReceiveHwm}, sent {peer.MessagesSent}, connected {peer.ConnectedAt:HH:mm:ss}");
        if (slowest is null || peer.OutboundQueuedMessages > slowest.OutboundQueuedMessages)
        {
            slowest = peer;
        }
    }

    if (slowest is not null && slowest.OutboundQueuedMessages > DropThreshold)
    {
        Console.WriteLine($"dropping {Encoding.UTF8.GetString(slowest.RoutingId.Span)}: {slowest.OutboundQueuedMessages} messages queued");
        server.DisconnectPeer(slowest);
    }

    Interlocked.Exchange(ref dropped, 0);
    listener.RecordObservableInstruments();  // one measurement per socket type and endpoint: summed above
    Console.WriteLine($"tick {tick}: {peers.Count} peers, {Interlocked.Read(ref dropped)} messages dropped at HWM so far");
}

stop.Cancel();
await reader;
Console.WriteLine("done");

static Socket Client(Context context, string id, string endpoint)
{
    var client = new Socket(context, SocketType.Dealer);
    client.SetOption(SocketOption.Routing_Id, id);
    client.SetOption(SocketOption.Rcvhwm, 1);
    client.SetOption(SocketOption.Rcvbuf, 8 * 1024);
    client.SetOption(SocketOption.Linger, 0);
    client.Connect(endpoint);
    return client;
}
