// Tuning knobs, each with what it changes (docs/tuning.md).
using System.Runtime.InteropServices;
using Managed.Zmq;

// I/O threads: each Context owns its own. One serves many connections; add threads when several
// busy tcp/ipc connections compete for it (inproc uses none).
using var context = new Context(ioThreads: 2);

using var receiver = new Socket(context, SocketType.Pull);
receiver.SetOption(SocketOption.Rcvhwm, 10_000);  // messages queued per peer before the sender is held back
receiver.SetOption(SocketOption.Rcvtimeo, 5000);  // -1 (default): Recv waits for ever
receiver.Bind("tcp://127.0.0.1:*");

using var sender = new Socket(context, SocketType.Push);
sender.SetOption(SocketOption.Sndhwm, 10_000);    // at the HWM, PUSH/DEALER/REQ block, PUB/ROUTER drop
sender.SetOption(SocketOption.Linger, 1000);      // at Dispose, wait up to 1 s for unsent messages (-1: for ever, 0: drop)
sender.Connect(receiver.GetOptionString(SocketOption.Last_Endpoint));

// Pooled messages: a rented Message's buffer goes back to the pool when the message is released,
// so a steady stream allocates nothing.
for (int i = 0; i < 3; i++)
{
    using var message = MessagePool.Shared.Rent(64);
    message.Data.Fill((byte)i);
    sender.Send(message);
}

// Zero-copy: a frame over memory you own; the callback runs once the library is done with it.
// Worth it for large frames (the library itself moves frames of 32 KiB and more by reference).
const int LargeSize = 1024 * 1024;
nint block = Marshal.AllocHGlobal(LargeSize);
using (var large = new Message(block, LargeSize, static memory => Marshal.FreeHGlobal(memory)))
{
    sender.Send(large);
}

// Receive modes. 1: blocking, into a reusable Message (no allocation per message).
using var frame = new Message();
int total = 0;
for (int i = 0; i < 3; i++)
{
    total += receiver.Recv(frame);
}

// 2: non-blocking, driven by a Poller (one thread, many sockets).
using var poller = new Poller(1);
int index = poller.Add(receiver, PollEvents.In);
if (poller.Poll(TimeSpan.FromSeconds(5)) > 0 && poller.IsReadable(index) && receiver.TryRecv(frame, out int size))
{
    total += size;
}

Console.WriteLine($"received {total} bytes in 4 messages");

// 3: async, for code that must not hold a thread while it waits.
sender.Send("async hello");
Console.WriteLine(await receiver.RecvStringAsync());

var statistics = MessagePool.Shared.GetStatistics();
Console.WriteLine($"pool: {statistics.TotalRents} rents");

// A send loop that keeps one Message and refills it from the pool allocates nothing at all.
using var outgoing = new Message();
for (int i = 0; i < 3; i++)
{
    outgoing.Rebuild(MessagePool.Shared, 64);
    outgoing.Data.Fill((byte)i);
    sender.Send(outgoing);   // the buffer goes back to the pool; outgoing is empty and reusable
}

for (int i = 0; i < 3; i++)
{
    receiver.Recv(frame);
}
