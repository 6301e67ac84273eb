using Managed.Zmq.Internal;
using Managed.Zmq.Polling;
using Managed.Zmq.Sockets;
using Managed.Zmq.Endpoints;

namespace Managed.Zmq;

/// <summary>
/// A fixed-capacity, index-based readiness waiter over Managed.Zmq sockets. Not thread-safe.
/// </summary>
/// <remarks>
/// Waiting is event-driven: the poller adds one listener to each registered socket's internal signal
/// for as long as the socket stays registered, and a <see cref="Poll(long)"/> with nothing ready
/// sleeps until one of those sockets is notified or the timeout expires. A Poll that finds a socket
/// ready at once takes no lock and allocates nothing.
/// </remarks>
public sealed class Poller : IDisposable
{
    /// <summary>Registered sockets, indexes 0 to <see cref="_count"/> - 1.</summary>
    private readonly Socket?[] _sockets;

    /// <summary>Requested events per slot.</summary>
    private readonly PollEvents[] _requested;

    /// <summary>Events the last Poll found, limited to the requested ones.</summary>
    private readonly PollEvents[] _returned;

    /// <summary>Where Poll sleeps; its listener sits on every registered socket's signal.</summary>
    private readonly ReadinessWaiter _waiter = new();

    /// <summary>Number of registered sockets.</summary>
    private int _count;

    /// <summary>True once <see cref="Dispose"/> ran.</summary>
    private bool _disposed;

    /// <summary>Creates a poller that can hold up to <paramref name="capacity"/> sockets.</summary>
    /// <param name="capacity">The maximum number of sockets; at least 1.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="capacity"/> is less than 1.</exception>
    public Poller(int capacity)
    {
        if (capacity < 1)
        {
            ThrowHelper.ThrowArgumentOutOfRangeException(nameof(capacity), "Capacity must be at least 1");
        }

        _sockets = new Socket?[capacity];
        _requested = new PollEvents[capacity];
        _returned = new PollEvents[capacity];
    }

    /// <summary>Gets the number of registered sockets.</summary>
    /// <exception cref="ObjectDisposedException">The poller is disposed.</exception>
    public int Count
    {
        get
        {
            ThrowIfDisposed();
            return _count;
        }
    }

    /// <summary>Gets the fixed capacity given at construction.</summary>
    /// <exception cref="ObjectDisposedException">The poller is disposed.</exception>
    public int Capacity
    {
        get
        {
            ThrowIfDisposed();
            return _sockets.Length;
        }
    }

    /// <summary>Registers <paramref name="socket"/> for <paramref name="events"/>.</summary>
    /// <param name="socket">The socket to watch.</param>
    /// <param name="events">The events to wait for (<see cref="PollEvents.In"/>, <see cref="PollEvents.Out"/>).</param>
    /// <returns>The socket's index: 0 for the first socket added, then 1, 2, …</returns>
    /// <exception cref="ArgumentNullException"><paramref name="socket"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">The poller is disposed.</exception>
    /// <exception cref="InvalidOperationException">The poller is at capacity.</exception>
    public int Add(Socket socket, PollEvents events)
    {
        ArgumentNullException.ThrowIfNull(socket);
        ThrowIfDisposed();
        if (_count == _sockets.Length)
        {
            ThrowHelper.ThrowInvalidOperationException($"Poller is at capacity ({_sockets.Length} sockets)");
        }

        int index = _count;
        socket.Core.Signal.AddListener(_waiter.Listener);
        _sockets[index] = socket;
        _requested[index] = events;
        _returned[index] = PollEvents.None;
        _count = index + 1;
        return index;
    }

    /// <summary>Replaces the requested events of a slot and clears its returned events.</summary>
    /// <param name="index">The slot.</param>
    /// <param name="events">The new requested events.</param>
    /// <exception cref="ObjectDisposedException">The poller is disposed.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is not a registered slot.</exception>
    public void Update(int index, PollEvents events)
    {
        ThrowIfDisposed();
        CheckIndex(index);
        _requested[index] = events;
        _returned[index] = PollEvents.None;
    }

    /// <summary>Returns the socket registered at <paramref name="index"/>.</summary>
    /// <param name="index">The slot.</param>
    /// <returns>The same instance that was added.</returns>
    /// <exception cref="ObjectDisposedException">The poller is disposed.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is not a registered slot.</exception>
    public Socket? GetSocket(int index)
    {
        ThrowIfDisposed();
        CheckIndex(index);
        return _sockets[index];
    }

    /// <summary>Waits until at least one registered socket has a requested event, or the timeout expires.</summary>
    /// <param name="timeout">In milliseconds: negative waits forever, 0 checks and returns at once.</param>
    /// <returns>
    /// The number of sockets with at least one requested event ready; 0 on timeout, and at once when no
    /// socket is registered.
    /// </returns>
    /// <exception cref="ObjectDisposedException">The poller is disposed.</exception>
    /// <exception cref="ZmqException">
    /// ETERM when a registered socket's context is shut down; ENOTSOCK when a registered socket was disposed.
    /// </exception>
    public int Poll(long timeout = -1)
    {
        ThrowIfDisposed();
        if (_count == 0)
        {
            return 0;
        }

        // Fast path: something is ready already, so no lock, no fence beyond the sockets' own.
        int ready = Scan();
        if (ready != 0 || timeout == 0)
        {
            return ready;
        }

        int spins = AnyReplyDue() ? Tuning.Blocking.ReplySpins : Tuning.Blocking.StreamSpins;
        var wait = new SpinThenPark(_waiter, WakeSequence.DeadlineFromTimeout(timeout), spins);
        try
        {
            while (wait.Next())
            {
                ready = Scan();
                if (ready != 0)
                {
                    return ready;
                }
            }
        }
        finally
        {
            wait.Dispose();
        }

        return 0;
    }

    private bool AnyReplyDue()
    {
        for (int i = 0; i < _count; i++)
        {
            if (_sockets[i] is { } socket && socket.Core.ReplyDue)
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Same as <see cref="Poll(long)"/> with the timeout in whole milliseconds.</summary>
    /// <param name="timeout">The timeout; <see cref="Timeout.InfiniteTimeSpan"/> (or any negative value) waits forever.</param>
    /// <returns>The number of sockets with at least one requested event ready; 0 on timeout.</returns>
    /// <exception cref="ObjectDisposedException">The poller is disposed.</exception>
    /// <exception cref="ZmqException">ETERM or ENOTSOCK, as for <see cref="Poll(long)"/>.</exception>
    public int Poll(TimeSpan timeout) => Poll((long)timeout.TotalMilliseconds);

    /// <summary>Returns whether the last Poll found <see cref="PollEvents.In"/> at <paramref name="index"/>.</summary>
    /// <param name="index">The slot.</param>
    /// <returns>true when a frame can be received without waiting.</returns>
    /// <exception cref="ObjectDisposedException">The poller is disposed.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is not a registered slot.</exception>
    public bool IsReadable(int index) => (GetReturnedEvents(index) & PollEvents.In) != 0;

    /// <summary>Returns whether the last Poll found <see cref="PollEvents.Out"/> at <paramref name="index"/>.</summary>
    /// <param name="index">The slot.</param>
    /// <returns>true when a send would not block.</returns>
    /// <exception cref="ObjectDisposedException">The poller is disposed.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is not a registered slot.</exception>
    public bool IsWritable(int index) => (GetReturnedEvents(index) & PollEvents.Out) != 0;

    /// <summary>Returns whether the last Poll found <see cref="PollEvents.Err"/> at <paramref name="index"/>; never for sockets.</summary>
    /// <param name="index">The slot.</param>
    /// <returns>Always false for sockets, as in libzmq.</returns>
    /// <exception cref="ObjectDisposedException">The poller is disposed.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is not a registered slot.</exception>
    public bool HasError(int index) => (GetReturnedEvents(index) & PollEvents.Err) != 0;

    /// <summary>Returns the events the last Poll found at <paramref name="index"/>, limited to the requested ones.</summary>
    /// <param name="index">The slot.</param>
    /// <returns>The returned events.</returns>
    /// <exception cref="ObjectDisposedException">The poller is disposed.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is not a registered slot.</exception>
    public PollEvents GetReturnedEvents(int index)
    {
        ThrowIfDisposed();
        CheckIndex(index);
        return _returned[index];
    }

    /// <summary>Unregisters every socket; the poller can then be reused.</summary>
    /// <exception cref="ObjectDisposedException">The poller is disposed.</exception>
    public void Clear()
    {
        ThrowIfDisposed();
        ClearCore();
    }

    /// <summary>Unregisters every socket and releases the poller. Idempotent.</summary>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        ClearCore();
    }

    private void ClearCore()
    {
        for (int i = 0; i < _count; i++)
        {
            _sockets[i]!.Core.Signal.RemoveListener(_waiter.Listener);
            _sockets[i] = null;
            _requested[i] = PollEvents.None;
            _returned[i] = PollEvents.None;
        }

        _count = 0;
    }

    /// <summary>Fills <see cref="_returned"/> and counts the slots with a requested event ready.</summary>
    private int Scan()
    {
        int ready = 0;
        for (int i = 0; i < _count; i++)
        {
            var returned = SocketReadiness.Query(_sockets[i]!.Core, _requested[i]);
            _returned[i] = returned;
            if (returned != PollEvents.None)
            {
                ready++;
            }
        }

        return ready;
    }

    private void CheckIndex(int index)
    {
        if (index < 0 || index >= _count)
        {
            ThrowHelper.ThrowArgumentOutOfRangeException(nameof(index), $"Index must be between 0 and {_count - 1}");
        }
    }

    private void ThrowIfDisposed()
    {
        if (_disposed)
        {
            ThrowHelper.ThrowObjectDisposedException(nameof(Poller));
        }
    }
}
