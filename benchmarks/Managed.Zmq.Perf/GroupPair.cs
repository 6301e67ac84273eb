namespace Managed.Zmq.Perf;

/// <summary>
/// The group pairs the <c>*_rd_thr</c> and <c>*_ps_thr</c> modes run, as compare.sh's
/// benchmarks/native/*_radio_thr.c tools do (radio_common.h): DISH (local, binds, joins
/// <see cref="Group"/>) with RADIO (remote, sends to it), the thread-safe draft pair, and SUB
/// (subscribes to everything) with XPUB, the classic pair read beside it. The sender sets
/// Xpub_Nodrop, so over a connection a full peer blocks the send rather than losing messages.
/// </summary>
internal sealed record GroupPair(string Suffix, SocketType Local, SocketType Remote)
{
    public static readonly GroupPair RadioDish = new("rd", SocketType.Dish, SocketType.Radio);

    public static readonly GroupPair PubSub = new("ps", SocketType.Sub, SocketType.XPub);

    /// <summary>The one group the tools use (radio_common.h's RADIO_GROUP).</summary>
    public const string Group = "perf";

    /// <summary>How long the receiver waits for the first message (the sender's start-up), then fails.</summary>
    public const int FirstWaitMilliseconds = 30_000;

    /// <summary>How long the receiver waits for one more message once they stop coming: the sender is done (udp lost the rest).</summary>
    public const int IdleMilliseconds = 1_000;

    /// <summary>
    /// A RADIO cannot see JOINs (an XPUB reads subscriptions): over a connection it waits this long after Connect so
    /// the DISH's JOIN has arrived; what it sends before is dropped and shows as loss. A udp DISH sends no JOIN.
    /// </summary>
    public static readonly TimeSpan JoinWait = TimeSpan.FromMilliseconds(500);

    public bool IsRadioDish => Local == SocketType.Dish;

    /// <summary>The pair whose mode names end in <c>_rd_thr</c> or <c>_ps_thr</c>, or null.</summary>
    public static GroupPair? FromMode(string mode) => mode switch
    {
        "local_rd_thr" or "remote_rd_thr" => RadioDish,
        "local_ps_thr" or "remote_ps_thr" => PubSub,
        _ => null,
    };
}
