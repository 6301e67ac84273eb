namespace Managed.Zmq.Patterns.Subscriptions;

/// <summary>Hears of each topic that lost its last subscriber when a connection left (<see cref="SubscriptionTable.RemovePipe"/>).</summary>
internal interface ITopicGoneSink
{
    void TopicGone(ReadOnlySpan<byte> topic);
}
