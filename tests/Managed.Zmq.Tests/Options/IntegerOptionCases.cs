
using Managed.Zmq.Options;

namespace Managed.Zmq.Tests.Options;

/// <summary>The integer rows of the option table (docs/options.md), with the values Net.Zmq's tests set and read back.</summary>
internal static class IntegerOptionCases
{
    private const OptionAccess RW = OptionAccess.ReadWrite;
    private const OptionAccess R = OptionAccess.Read;
    private const OptionAccess W = OptionAccess.Write;
    private const int I = sizeof(int);
    private const int L = sizeof(long);
    private const long IntMax = int.MaxValue;
    private const long IntMin = int.MinValue;

    public static readonly IntegerOptionCase[] All =
    [
        new("Affinity", 4, L, 0, RW, SocketType.Pair, long.MinValue, long.MaxValue, [0, 1, 2, 3, 15, -1]),
        new("Rate", 8, I, 100, RW, SocketType.Pub, 1, IntMax, [1, 100, 1000]),
        new("Recovery_Ivl", 9, I, 10_000, RW, SocketType.Pub, 0, IntMax, [0, 5000]),
        new("Sndbuf", 11, I, -1, RW, SocketType.Dealer, -1, IntMax, [-1, 0, 16384]),
        new("Rcvbuf", 12, I, -1, RW, SocketType.Dealer, -1, IntMax, [-1, 0, 16384]),
        new("Linger", 17, I, -1, RW, SocketType.Push, -1, IntMax, [-1, 0, 500, 1000, 5000]),
        new("Reconnect_Ivl", 18, I, 100, RW, SocketType.Dealer, -1, IntMax, [-1, 0, 200]),
        new("Backlog", 19, I, 100, RW, SocketType.Router, 0, IntMax, [0, 500]),
        new("Reconnect_Ivl_Max", 21, I, 0, RW, SocketType.Dealer, 0, IntMax, [0, 5000]),
        new("Maxmsgsize", 22, L, -1, RW, SocketType.Pull, long.MinValue, long.MaxValue, [-1, 0, 65536, 1048576, 10485760]),
        new("Sndhwm", 23, I, 1000, RW, SocketType.Push, 0, IntMax, [0, 1, 5000]),
        new("Rcvhwm", 24, I, 1000, RW, SocketType.Pull, 0, IntMax, [0, 1, 5000]),
        new("Multicast_Hops", 25, I, 1, RW, SocketType.Pub, 1, IntMax, [1, 10]),
        new("Rcvtimeo", 27, I, -1, RW, SocketType.Pull, -1, IntMax, [-1, 0, 100]),
        new("Sndtimeo", 28, I, -1, RW, SocketType.Push, -1, IntMax, [-1, 0, 100]),
        new("Router_Mandatory", 33, I, 0, W, SocketType.Router, 0, IntMax, [0, 1, 2]),
        new("Tcp_Keepalive", 34, I, -1, RW, SocketType.Dealer, -1, 1, [-1, 0, 1]),
        new("Tcp_Keepalive_Cnt", 35, I, -1, RW, SocketType.Dealer, -1, IntMax, [-1, 0, 5]),
        new("Tcp_Keepalive_Idle", 36, I, -1, RW, SocketType.Dealer, -1, IntMax, [-1, 0, 60]),
        new("Tcp_Keepalive_Intvl", 37, I, -1, RW, SocketType.Dealer, -1, IntMax, [-1, 0, 10]),
        new("Immediate", 39, I, 0, RW, SocketType.Push, 0, 1, [0, 1]),
        new("Xpub_Verbose", 40, I, 0, W, SocketType.XPub, 0, IntMax, [0, 1]),
        new("Router_Raw", 41, I, 0, W, SocketType.Router, 0, IntMax, [0, 1]),
        new("Ipv6", 42, I, 0, RW, SocketType.Pair, 0, 1, [0, 1]),
        new("Mechanism", 43, I, 0, R, SocketType.Pair, 0, 0, []),
        new("Plain_Server", 44, I, 0, RW, SocketType.Rep, 0, 1, [0, 1]),
        new("Curve_Server", 47, I, 0, RW, SocketType.Rep, 0, 1, [0, 1]),
        new("Probe_Router", 51, I, 0, W, SocketType.Dealer, 0, IntMax, [0, 1]),
        new("Req_Correlate", 52, I, 0, W, SocketType.Req, 0, IntMax, [0, 1]),
        new("Req_Relaxed", 53, I, 0, W, SocketType.Req, 0, IntMax, [0, 1]),
        new("Conflate", 54, I, 0, RW, SocketType.Pull, 0, 1, [0, 1]),
        new("Router_Handover", 56, I, 0, W, SocketType.Router, 0, IntMax, [0, 1]),
        new("Tos", 57, I, 0, RW, SocketType.Dealer, 0, IntMax, [0, 0x10, 0x20, 0x28]),
        new("Handshake_Ivl", 66, I, 30_000, RW, SocketType.Dealer, 0, IntMax, [0, 5000]),
        new("Xpub_Nodrop", 69, I, 0, W, SocketType.XPub, 0, IntMax, [0, 1]),
        new("Xpub_Manual", 71, I, 0, W, SocketType.XPub, 0, IntMax, [0, 1]),
        new("Stream_Notify", 73, I, 1, W, SocketType.Stream, 0, 1, [0, 1]),
        new("Invert_Matching", 74, I, 0, RW, SocketType.Sub, IntMin, IntMax, [0, 1, 7]),
        new("Heartbeat_Ivl", 75, I, 0, RW, SocketType.Dealer, 0, IntMax, [0, 1000]),
        new("Heartbeat_Ttl", 76, I, 0, RW, SocketType.Dealer, -99, 6_553_599, [0, 1000, 5000, 20000, 1050, -50]),
        new("Heartbeat_Timeout", 77, I, -1, RW, SocketType.Dealer, 0, IntMax, [0, 3000]),
        new("Xpub_Verboser", 78, I, 0, W, SocketType.XPub, 0, IntMax, [0, 1]),
        new("Connect_Timeout", 79, I, 0, RW, SocketType.Dealer, 0, IntMax, [0, 2000]),
        new("Tcp_Maxrt", 80, I, 0, RW, SocketType.Dealer, 0, IntMax, [0, 2000]),
        new("Thread_Safe", 81, I, 0, R, SocketType.Pair, 0, 0, []),
        new("Multicast_Maxtpdu", 84, I, 1500, RW, SocketType.Pub, 1, IntMax, [1, 9000]),
        new("Use_Fd", 89, I, -1, RW, SocketType.Rep, -1, IntMax, [-1, 3]),
        new("Multicast_Loop", 96, I, 1, RW, SocketType.Radio, IntMin, IntMax, [0, 1, -5]),
        new("Wss_Trust_System", 107, I, 0, W, SocketType.Dealer, 0, 1, [0, 1]),
    ];

    private static readonly Dictionary<string, IntegerOptionCase> s_byName = All.ToDictionary(c => c.Name);

    public static IntegerOptionCase Get(string name) => s_byName[name];

    public static TheoryData<string> Names(Func<IntegerOptionCase, bool> filter) => [.. All.Where(filter).Select(c => c.Name)];

    /// <summary>Name and one value per row, for theories over every listed value.</summary>
    public static TheoryData<string, long> Values(Func<IntegerOptionCase, IEnumerable<long>> values, Func<IntegerOptionCase, bool> filter)
    {
        var data = new TheoryData<string, long>();
        foreach (IntegerOptionCase row in All.Where(filter))
        {
            foreach (long value in values(row).Distinct())
            {
                data.Add(row.Name, value);
            }
        }

        return data;
    }
}
