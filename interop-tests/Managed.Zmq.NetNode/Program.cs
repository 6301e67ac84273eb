using Managed.Zmq.NetNode;

// netnode                         a ZeroMQ node driven by NodeHost's line protocol on stdin
// netnode proxy PORT HOST PORT    a fault-injecting TCP proxy driven by ProxyHost's commands
if (args.Length == 4 && args[0] == "proxy")
{
    return ProxyHost.Run(int.Parse(args[1]), args[2], int.Parse(args[3]));
}

if (args.Length == 0)
{
    return NodeHost.Run();
}

Console.Error.WriteLine("usage: netnode | netnode proxy LISTEN_PORT TARGET_HOST TARGET_PORT");
return 2;
