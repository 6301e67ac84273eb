// SCATTER/GATHER and CHANNEL (docs/scatter-gather-channel.md): the thread-safe PUSH/PULL and PAIR of
// single-part messages, used here from several threads at once with no lock in this code.
using System.Globalization;
using Managed.Zmq;

const int Tasks = 100;
const int Senders = 4;

using var context = new Context();
using var gather = new Socket(context, SocketType.Gather);
gather.Bind("tcp://127.0.0.1:*");
string endpoint = gather.GetOptionString(SocketOption.Last_Endpoint);
using var scatter = new Socket(context, SocketType.Scatter);
scatter.Connect(endpoint);
gather.SetOption(SocketOption.Rcvtimeo, 5000);

// Four threads send on the one SCATTER at once; each message arrives whole, once.
var senders = new List<Thread>();
for (int s = 0; s < Senders; s++)
{
    int first = s * (Tasks / Senders) + 1;
    var sender = new Thread(() =>
    {
        for (int n = first; n < first + Tasks / Senders; n++)
        {
            scatter.Send(n.ToString(CultureInfo.InvariantCulture));
        }
    });
    sender.Start();
    senders.Add(sender);
}

long sum = 0;
for (int i = 0; i < Tasks; i++)
{
    sum += long.Parse(gather.RecvString(), CultureInfo.InvariantCulture);
}

senders.ForEach(s => s.Join());
Console.WriteLine($"gather: {Tasks} tasks from {Senders} threads, sum 1..{Tasks} = {sum}");

// Single-part messages only: a send with SendMore is refused, and nothing is queued.
try
{
    scatter.Send("part 1", SendFlags.SendMore);
}
catch (ZmqException e) when (e.ErrorNumber == ZmqConstants.EINVAL)
{
    Console.WriteLine("scatter: multipart refused (EINVAL)");
}

// CHANNEL: PAIR's one-to-one link, thread-safe.
using var left = new Socket(context, SocketType.Channel);
using var right = new Socket(context, SocketType.Channel);
left.Bind("inproc://sample-channel");
right.Connect("inproc://sample-channel");
left.SetOption(SocketOption.Rcvtimeo, 5000);
right.SetOption(SocketOption.Rcvtimeo, 5000);

left.Send("ping");
Console.WriteLine($"channel right got: {right.RecvString()}");
right.Send("pong");
Console.WriteLine($"channel left got: {left.RecvString()}");
