using System.Net.Sockets;

namespace Managed.Zmq.Threading;

/// <summary>
/// A thread's wait for one OS socket to be readable that another thread can end at once: the read turn's
/// (docs/ARCHITECTURE.md), whose wait on a connection's socket nothing else would wake. One per thread, created on the
/// thread's first such wait: a <see cref="WakeupChannel"/> (two descriptors), kept for the thread's life.
/// </summary>
/// <remarks>
/// An interrupt is sticky: one that comes before the wait, or after it ended, makes the next wait return at once, until
/// the waiting thread clears it with <see cref="Reset"/>. So a waiter resets, then says where it waits, then looks for
/// the news once more, then waits: news written before that look is seen by it, and news written after it interrupts.
/// </remarks>
internal sealed class InterruptibleWait
{
    [ThreadStatic]
    private static InterruptibleWait? t_current;

    private readonly WakeupChannel _channel = new();

    /// <summary>The sockets Select watches, refilled for every wait (Select leaves the readable ones in it).</summary>
    private readonly List<System.Net.Sockets.Socket> _watched = new(2);

    /// <summary>1 from an interrupt until the waiting thread clears it: at most one byte in the channel.</summary>
    private int _interrupted;

    private InterruptibleWait()
    {
    }

    /// <summary>The calling thread's wait, created on first use.</summary>
    public static InterruptibleWait ForCurrentThread => t_current ??= new InterruptibleWait();

    /// <summary>Any thread: ends the wait in progress, or the next one, at once.</summary>
    public void Interrupt()
    {
        if (Interlocked.Exchange(ref _interrupted, 1) == 0)
        {
            _channel.Signal();
        }
    }

    /// <summary>Waiting thread, before it looks for news: clears an interrupt meant for an earlier wait. No system call unless there was one.</summary>
    public void Reset()
    {
        if (Volatile.Read(ref _interrupted) != 0)
        {
            _channel.Drain();
            Volatile.Write(ref _interrupted, 0);
        }
    }

    /// <summary>Waiting thread: whether the last <see cref="WaitReadable"/> found an interrupt.</summary>
    public bool Interrupted { get; private set; }

    /// <summary>
    /// Waiting thread: waits up to <paramref name="microseconds"/> for <paramref name="socket"/> to be readable. False when
    /// the time ran out or the wait was interrupted (<see cref="Interrupted"/> tells which).
    /// </summary>
    public bool WaitReadable(System.Net.Sockets.Socket socket, int microseconds)
    {
        _watched.Clear();
        _watched.Add(socket);
        _watched.Add(_channel.Reader);
        System.Net.Sockets.Socket.Select(_watched, null, null, microseconds);
        Interrupted = _watched.Contains(_channel.Reader);
        return _watched.Contains(socket);
    }
}
