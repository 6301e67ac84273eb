using System.Buffers.Binary;
using System.Globalization;
using Managed.Zmq;

// Modes:
//   echo-server   binds a REP on tcp://127.0.0.1 (ephemeral port), prints "port <n>", answers every
//                 request with itself, and prints, in the order the monitor gives them, "accepted" for
//                 each ACCEPTED and "accept-failed <errno>" for each ACCEPT_FAILED event. Runs until killed. The fd-exhaustion test runs it under prlimit.
if (args is not ["echo-server"])
{
    Console.Error.WriteLine("usage: Managed.Zmq.TestHost echo-server");
    return 2;
}

using var context = new Context();
using var rep = new Socket(context, SocketType.Rep);

// Connections that never handshake are held for as long as the test needs them.
rep.SetOption(SocketOption.Handshake_Ivl, 0);
rep.SetOption(SocketOption.Linger, 0);
string monitorEndpoint = $"inproc://testhost-monitor-{Environment.ProcessId}";
rep.Monitor(monitorEndpoint, SocketMonitorEvent.Accepted | SocketMonitorEvent.AcceptFailed);
using var events = new Socket(context, SocketType.Pair);
events.Connect(monitorEndpoint);
var monitor = new Thread(() =>
{
    while (true)
    {
        byte[] header = events.RecvBytes();
        events.RecvBytes();
        var kind = (SocketMonitorEvent)BinaryPrimitives.ReadUInt16LittleEndian(header);
        int value = BinaryPrimitives.ReadInt32LittleEndian(header.AsSpan(2));
        Console.WriteLine(kind == SocketMonitorEvent.Accepted ? "accepted" : $"accept-failed {value.ToString(CultureInfo.InvariantCulture)}");
    }
})
{ IsBackground = true };
monitor.Start();

rep.Bind("tcp://127.0.0.1:0");
string endpoint = rep.GetOptionString(SocketOption.Last_Endpoint);
Console.WriteLine($"port {endpoint[(endpoint.LastIndexOf(':') + 1)..]}");
var buffer = new byte[256];
while (true)
{
    int length = rep.Recv(buffer);
    rep.Send(buffer.AsSpan(0, Math.Min(length, buffer.Length)));
}
