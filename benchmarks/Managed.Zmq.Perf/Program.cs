namespace Managed.Zmq.Perf;

/// <summary>
/// Managed.Zmq perf CLI. With no arguments it runs <see cref="SelfBenchmark"/>; otherwise
/// the first argument selects a mode that behaves like the libzmq perf tool of that name.
/// </summary>
internal static class Program
{
    private static int Main(string[] args)
    {
        if (args.Length == 0)
        {
            return SelfBenchmark.Run();
        }

        PerfCurve.InstallProvider();
        PerfMeters.InstallIfAsked();
        ReadOnlySpan<string> rest = args.AsSpan(1);
        try
        {
            return args[0] switch
            {
                LocalThroughput.Name => LocalThroughput.Run(rest),
                RemoteThroughput.Name => RemoteThroughput.Run(rest),
                LocalLatency.Name => LocalLatency.Run(rest),
                RemoteLatency.Name => RemoteLatency.Run(rest),
                InprocThroughput.Name => InprocThroughput.Run(rest),
                InprocLatency.Name => InprocLatency.Run(rest),
                InprocCost.Name => InprocCost.Run(rest),
                LocalRouterThroughput.Name => LocalRouterThroughput.Run(rest),
                RemoteRouterThroughput.Name => RemoteRouterThroughput.Run(rest),
                Handshake.Name => Handshake.Run(rest),
                CryptoThroughput.Name => CryptoThroughput.Run(rest),
                ReceiveModes.Name => ReceiveModes.Run(rest),
                PubFanout.Name => PubFanout.Run(rest),
                SubFanout.Name => SubFanout.Run(rest),
                RouterFanin.Name => RouterFanin.Run(rest),
                DealerFanin.Name => DealerFanin.Run(rest),
                var m when RoutedThroughput.IsLocal(m) => RoutedThroughput.RunLocal(m, RoutedPair.FromMode(m)!, rest),
                var m when RoutedThroughput.IsRemote(m) => RoutedThroughput.RunRemote(m, RoutedPair.FromMode(m)!, rest),
                var m when RoutedLatency.IsLocal(m) => RoutedLatency.RunLocal(m, RoutedPair.FromMode(m)!, rest),
                var m when RoutedLatency.IsRemote(m) => RoutedLatency.RunRemote(m, RoutedPair.FromMode(m)!, rest),
                var m when GroupThroughput.IsLocal(m) => GroupThroughput.RunLocal(m, GroupPair.FromMode(m)!, rest),
                var m when GroupThroughput.IsRemote(m) => GroupThroughput.RunRemote(m, GroupPair.FromMode(m)!, rest),
                _ => Usage(),
            };
        }
        catch (ZmqException ex)
        {
            Console.Error.WriteLine($"error in {args[0]}: {ex.Message}");
            return 1;
        }
    }

    private static int Usage()
    {
        Console.WriteLine("usage: Managed.Zmq.Perf                      (self-benchmark, tcp loopback)");
        Console.WriteLine("       Managed.Zmq.Perf local_thr <bind-to> <message-size> <message-count>");
        Console.WriteLine("       Managed.Zmq.Perf remote_thr <connect-to> <message-size> <message-count>");
        Console.WriteLine("       Managed.Zmq.Perf local_lat <bind-to> <message-size> <roundtrip-count>");
        Console.WriteLine("       Managed.Zmq.Perf remote_lat <connect-to> <message-size> <roundtrip-count>");
        Console.WriteLine("       Managed.Zmq.Perf inproc_thr <message-size> <message-count>");
        Console.WriteLine("       Managed.Zmq.Perf inproc_lat <message-size> <roundtrip-count>");
        Console.WriteLine("       Managed.Zmq.Perf inproc_cost <batch|catchup> <message-count> [push-pull|dealer-router|client-server]   (64 B, one thread, ns per message from timed batches)");
        Console.WriteLine("       Managed.Zmq.Perf local_router_thr <bind-to> <message-size> <message-count>");
        Console.WriteLine("       Managed.Zmq.Perf remote_router_thr <connect-to> <message-size> <message-count>");
        Console.WriteLine("       Managed.Zmq.Perf handshake <message-size> <connection-count>");
        Console.WriteLine("       Managed.Zmq.Perf crypto [milliseconds-per-case]");
        Console.WriteLine("       Managed.Zmq.Perf receive_modes <message-size> <message-count>   (Blocking vs Poller, alternating rounds)");
        Console.WriteLine("       Managed.Zmq.Perf pub_fanout <bind-to> <message-size> <message-count> <subscribers>");
        Console.WriteLine("       Managed.Zmq.Perf sub_fanout <connect-to> <message-size> <message-count> <subscribers>");
        Console.WriteLine("       Managed.Zmq.Perf router_fanin <bind-to> <message-size> <message-count> <dealers>");
        Console.WriteLine("       Managed.Zmq.Perf dealer_fanin <connect-to> <message-size> <message-count> <dealers>");
        Console.WriteLine("       Managed.Zmq.Perf local_dr_thr|local_cs_thr <bind-to> <message-size> <message-count>   (ROUTER or SERVER receives)");
        Console.WriteLine("       Managed.Zmq.Perf remote_dr_thr|remote_cs_thr <connect-to> <message-size> <message-count>   (DEALER or CLIENT sends)");
        Console.WriteLine("       Managed.Zmq.Perf local_dr_lat|local_cs_lat <bind-to> <message-size> <roundtrip-count>   (ROUTER or SERVER echoes)");
        Console.WriteLine("       Managed.Zmq.Perf remote_dr_lat|remote_cs_lat <connect-to> <message-size> <roundtrip-count>   (DEALER or CLIENT times)");
        Console.WriteLine("       Managed.Zmq.Perf local_rd_thr|local_ps_thr <bind-to> <message-size> <message-count>   (DISH or SUB receives; stops when idle, prints the loss)");
        Console.WriteLine("       Managed.Zmq.Perf remote_rd_thr|remote_ps_thr <connect-to> <message-size> <message-count>   (RADIO or XPUB sends, Xpub_Nodrop)");
        Console.WriteLine("Endpoints may be tcp://, ipc://, ws:// (ws://127.0.0.1:5555 or with a path); udp:// for the rd modes.");
        Console.WriteLine("PERF_IO_THREADS=n: the fan-out/fan-in modes' contexts get n I/O threads.");
        Console.WriteLine("PERF_SODIUM=1 as well: X25519 through Managed.Zmq.Sodium (libsodium).");
        Console.WriteLine("PERF_METERS=1: a MeterListener on the Managed.Zmq meter, collected every second (the cost of being watched).");
        Console.WriteLine("PERF_CURVE=1 in the environment: local/bind side is the CURVE server, remote/connect side the client.");
        return 1;
    }
}
