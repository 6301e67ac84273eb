
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Patterns.Subscriptions;

/// <summary>Receives each connection whose subscriptions match a message, once (<see cref="SubscriptionTable.Match"/>).</summary>
internal interface IMatchSink
{
    /// <summary>Return false to stop matching.</summary>
    bool Matched(Pipe pipe);
}
