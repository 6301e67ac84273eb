namespace Managed.Zmq.Patterns.Subscriptions;

/// <summary>A publisher's per-connection bookkeeping (the pipe's PatternState at PUB and XPUB).</summary>
internal sealed class SubscriberState
{
    /// <summary>Topics this connection holds in the <see cref="SubscriptionTable"/>: a leaving connection with none costs no walk.</summary>
    public int Subscriptions;

    /// <summary>The message this connection was last matched for, so two matching prefixes deliver one copy.</summary>
    public long MatchStamp;
}
