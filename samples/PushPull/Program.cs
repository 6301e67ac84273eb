// PUSH/PULL: a ventilator spreads tasks over workers, a sink collects the results (docs/getting-started.md).
using Managed.Zmq;

const int Tasks = 100;
const int Workers = 3;

using var context = new Context();

using var ventilator = new Socket(context, SocketType.Push);
ventilator.Bind("tcp://127.0.0.1:*");
string tasksEndpoint = ventilator.GetOptionString(SocketOption.Last_Endpoint);

using var sink = new Socket(context, SocketType.Pull);
sink.SetOption(SocketOption.Rcvtimeo, 5000);
sink.Bind("tcp://127.0.0.1:*");
string resultsEndpoint = sink.GetOptionString(SocketOption.Last_Endpoint);

var workers = new List<Thread>();
for (int w = 0; w < Workers; w++)
{
    var worker = new Thread(() =>
    {
        using var tasks = new Socket(context, SocketType.Pull);
        using var results = new Socket(context, SocketType.Push);
        tasks.Connect(tasksEndpoint);
        results.Connect(resultsEndpoint);
        try
        {
            while (true)
            {
                int n = int.Parse(tasks.RecvString(), System.Globalization.CultureInfo.InvariantCulture);
                results.Send((n * n).ToString(System.Globalization.CultureInfo.InvariantCulture));
            }
        }
        catch (ZmqException e) when (e.ErrorNumber == ZmqConstants.ETERM)
        {
            // context.Shutdown(): every blocking call on the context's sockets ends with ETERM.
        }
    });
    worker.Start();
    workers.Add(worker);
}

// PUSH hands each message to the next connected PULL in turn; with no PULL connected yet, Send waits.
for (int n = 1; n <= Tasks; n++)
{
    ventilator.Send(n.ToString(System.Globalization.CultureInfo.InvariantCulture));
}

long sum = 0;
for (int i = 0; i < Tasks; i++)
{
    sum += long.Parse(sink.RecvString(), System.Globalization.CultureInfo.InvariantCulture);
}

Console.WriteLine($"sink: {Tasks} results, sum of squares 1..{Tasks} = {sum}");

context.Shutdown(); // the workers' Recv throws ETERM, they dispose their sockets and end
workers.ForEach(w => w.Join());
