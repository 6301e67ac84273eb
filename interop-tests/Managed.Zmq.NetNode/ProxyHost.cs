using System.Net;

namespace Managed.Zmq.NetNode;

/// <summary>
/// Drives a <see cref="FaultProxy"/> from stdin: "delay MS", "rate BYTES_PER_SECOND", "partition",
/// "heal", "stats", "quit"; one "ok ..." line per command. Prints "ok listening" once it listens.
/// </summary>
public static class ProxyHost
{
    public static int Run(int listenPort, string targetHost, int targetPort)
    {
        using var proxy = new FaultProxy(listenPort, new IPEndPoint(IPAddress.Parse(targetHost), targetPort));
        Console.Out.WriteLine("ok listening");
        Console.Out.Flush();
        string? line;
        while ((line = Console.In.ReadLine()) is not null)
        {
            string[] w = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            string reply = "ok";
            switch (w.FirstOrDefault())
            {
                case "delay":
                    proxy.DelayMilliseconds = int.Parse(w[1]);
                    break;
                case "rate":
                    proxy.BytesPerSecond = long.Parse(w[1]);
                    break;
                case "partition":
                    proxy.Partition();
                    break;
                case "heal":
                    proxy.Heal();
                    break;
                case "stats":
                    reply = "ok " + proxy.Stats();
                    break;
                case "quit":
                    Console.Out.WriteLine("ok");
                    Console.Out.Flush();
                    return 0;
                default:
                    reply = "err EINVAL unknown command";
                    break;
            }

            Console.Out.WriteLine(reply);
            Console.Out.Flush();
        }

        return 0;
    }
}
