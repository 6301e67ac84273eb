using Managed.Zmq.Inproc;

namespace Managed.Zmq.Sockets;

/// <summary>
/// Wakes a user thread parked in a blocking Send or Recv (and, through listeners,
/// pollers) when something about the socket may have changed: data arrived, HWM room freed,
/// a peer attached, the context terminated.
/// </summary>
/// <remarks>
/// The wait itself, and why no wake-up is lost, is <see cref="WakeSequence"/>'s; this adds the listeners.
/// </remarks>
internal sealed class SocketSignal : WakeSequence, IPeerSignal
{
    /// <summary>
    /// Pollers and async waiters watching this socket. Invoked on every notification while
    /// registered, from whichever thread notifies (an I/O thread or a peer's user thread), so a
    /// listener must be short and must not block: set a flag, release a waiter.
    /// </summary>
    private Action? _listeners;

    public void AddListener(Action listener)
    {
        lock (SyncRoot)
        {
            Volatile.Write(ref _listeners, (Action?)Delegate.Combine(_listeners, listener));
        }
    }

    public void RemoveListener(Action listener)
    {
        lock (SyncRoot)
        {
            Volatile.Write(ref _listeners, (Action?)Delegate.Remove(_listeners, listener));
        }
    }

    /// <summary>Called after the caller made a state change visible (with a full fence).</summary>
    public void Notify()
    {
        Wake();
        Volatile.Read(ref _listeners)?.Invoke();
    }
}
