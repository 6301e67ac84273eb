using Managed.Zmq.Sockets;

namespace Managed.Zmq.Polling;

/// <summary>
/// Parks one thread (a <see cref="Poller"/> or a proxy loop) until any socket it listens to is
/// notified, or a deadline passes. One instance serves any number of sockets: <see cref="Listener"/>
/// is added to each socket's signal.
/// </summary>
/// <remarks>
/// A single thread ever waits here (Poller and Proxy are single-threaded by contract). While nobody waits, a
/// notification costs one volatile read: a busy socket feeding a poller that is busy elsewhere takes no lock.
/// </remarks>
internal sealed class ReadinessWaiter : WakeSequence
{
    public ReadinessWaiter()
    {
        Listener = Wake;
    }

    /// <summary>
    /// The delegate to add to (and later remove from) each watched socket's signal. It runs on whichever thread
    /// notifies a watched socket, so it stays tiny and never blocks for long.
    /// </summary>
    public Action Listener { get; }
}
