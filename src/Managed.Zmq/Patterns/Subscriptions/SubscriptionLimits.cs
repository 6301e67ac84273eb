using Managed.Zmq.Internal;

namespace Managed.Zmq.Patterns.Subscriptions;

/// <summary>How much subscription work a publisher does per call of the application.</summary>
internal static class SubscriptionLimits
{
    /// <summary>
    /// Upstream frames (subscriptions, cancels, XPUB messages) a publisher applies before each send,
    /// at most. A peer that sends a burst of a million subscriptions then delays each send by one
    /// bounded batch instead of stalling the application until the burst is applied; the burst is
    /// applied over the following sends, as libzmq applies one pipe's worth at a time.
    /// </summary>
    public const int FramesPerSend = Tuning.Pipes.SubscriptionFramesPerSend;
}
