using System.Net.Sockets;

namespace Managed.Zmq.Threading;

/// <summary>
/// A thread's wait for one OS socket to be readable that another thread can end at once: the read turn's
/// (docs/ARCHITECTURE.md), whose wait on a connection's socket nothing else would wake. One per thread, created on the
/// thread's first such wait: a <see cref="WakeupChannel"/> (two descriptors), kept for the thread's life.
/// </summary>
/// <remarks>
/// An interrupt is a byte in the channel: one that comes before a wait makes that wait return at once, and every wait
/// that finds one drains the channel. So a waiter says where it waits, then looks for news once more, then waits: news
/// written before that look is seen by it, and news written after it interrupts the wait. An interrupt that comes too
/// late for the wait it was meant for ends the thread's next wait early, once; the waiter then finds no news and waits
/// again.
/// </remarks>
internal sealed class InterruptibleWait
{
    [ThreadStatic]
    private static InterruptibleWait? t_current;

    /// <summary>Set when this thread's wait could not be made: it is not tried again, so no Recv pays for a failure twice.</summary>
    [ThreadStatic]
    private static bool t_unavailable;

    private readonly WakeupChannel _channel = new();

    /// <summary>The sockets Select watches, refilled for every wait (Select leaves the readable ones in it).</summary>
    private readonly List<System.Net.Sockets.Socket> _watched = new(2);

    private InterruptibleWait()
    {
    }

    /// <summary>
    /// The calling thread's wait, created on first use; null when it could not be made (no descriptors left, no
    /// Unix-domain sockets), then and for the rest of the thread's life: the caller then waits on its socket alone.
    /// </summary>
    public static InterruptibleWait? ForCurrentThread => t_current ?? (t_unavailable ? null : Create());

    /// <summary>
    /// From now on the calling thread goes without its wait, as a thread whose channel could not be made does
    /// (<see cref="ForCurrentThread"/> null): for the tests of that path, which otherwise needs the process's descriptors
    /// used up. No effect on a thread that has its wait already.
    /// </summary>
    internal static void GoWithoutForCurrentThread() => t_unavailable = t_current is null;

    private static InterruptibleWait? Create()
    {
        try
        {
            return t_current = new InterruptibleWait();
        }
        catch (Exception ex) when (ex is SocketException or IOException or UnauthorizedAccessException or PlatformNotSupportedException)
        {
            t_unavailable = true;
            return null;
        }
    }

    /// <summary>A wait was interrupted since <see cref="TakeInterrupted"/> last looked (waiting thread only).</summary>
    private bool _interrupted;

    /// <summary>
    /// Waiting thread: whether a <see cref="WaitReadable"/> was interrupted since the last call, which clears it. Set
    /// also when the socket was readable by then too: the interrupt was used up either way.
    /// </summary>
    public bool TakeInterrupted()
    {
        bool interrupted = _interrupted;
        _interrupted = false;
        return interrupted;
    }

    /// <summary>
    /// Waiting thread: whether a <see cref="WaitReadable"/> was interrupted since <see cref="TakeInterrupted"/> last
    /// looked, without clearing it: for a waiter that waits again within one turn, to stop before news waits on it.
    /// </summary>
    public bool Interrupted => _interrupted;

    /// <summary>Any thread: ends the wait in progress, or the next one, at once.</summary>
    public void Interrupt() => _channel.Signal();

    /// <summary>
    /// Waiting thread: waits up to <paramref name="microseconds"/> for <paramref name="socket"/> to be readable. False when
    /// the time ran out or the wait was interrupted (<see cref="TakeInterrupted"/> tells which).
    /// </summary>
    public bool WaitReadable(System.Net.Sockets.Socket socket, int microseconds)
    {
        _watched.Clear();
        _watched.Add(socket);
        _watched.Add(_channel.Reader);
        System.Net.Sockets.Socket.Select(_watched, null, null, microseconds);
        if (_watched.Contains(_channel.Reader))
        {
            _interrupted = true;
            _channel.Drain();
        }

        return _watched.Contains(socket);
    }
}
