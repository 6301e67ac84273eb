// PAIR over inproc: two threads of one process, one socket each (docs/getting-started.md).
using Managed.Zmq;

using var context = new Context(); // inproc endpoints live in one Context: share it

using var main = new Socket(context, SocketType.Pair);
main.SetOption(SocketOption.Rcvtimeo, 5000);
main.Bind("inproc://pipeline-step-1"); // a name, no port; unique within the context

var step = new Thread(() =>
{
    using var pair = new Socket(context, SocketType.Pair);
    pair.Connect("inproc://pipeline-step-1");
    pair.Send("step 1 ready");
    string order = pair.RecvString();
    pair.Send($"step 1 did '{order}'");
});
step.Start();

Console.WriteLine(main.RecvString());
main.Send("compress the logs");
Console.WriteLine(main.RecvString());
step.Join();
