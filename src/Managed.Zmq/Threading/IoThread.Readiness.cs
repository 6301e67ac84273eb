using System.Net.Sockets;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Threading;

/// <summary>The I/O thread's readiness: which sockets it watches, the Select set over the busy ones, dispatch and fault isolation.</summary>
internal sealed partial class IoThread
{
    // ------------------------------------------------------------ readiness (I/O thread only)

    /// <summary>
    /// Calls <paramref name="handler"/>.OnReadable once <paramref name="socket"/> is readable (or has
    /// an error or end of stream to report). A connected stream socket may be parked while it waits;
    /// until OnReadable runs, its owner must not receive from it.
    /// </summary>
    /// <param name="socket">The socket.</param>
    /// <param name="handler">Who to call.</param>
    /// <param name="mayPark">False for a socket a zero-byte receive cannot wait on (a listener): it stays in Select.</param>
    public void WatchRead(System.Net.Sockets.Socket socket, IReadinessHandler handler, bool mayPark = true)
    {
        var registration = Register(socket, handler);
        registration.MayPark = mayPark;
        if (!registration.WantsRead)
        {
            registration.WantsRead = true;
            registration.ReadSince = _now;
            UpdateHot(registration);
        }
    }

    /// <summary>Calls <paramref name="handler"/>.OnWritable once <paramref name="socket"/> is writable.</summary>
    public void WatchWrite(System.Net.Sockets.Socket socket, IReadinessHandler handler)
    {
        var registration = Register(socket, handler);
        registration.WantsWrite = true;
        UpdateHot(registration);
    }

    private Registration Register(System.Net.Sockets.Socket socket, IReadinessHandler handler)
    {
        if (!_registrations.TryGetValue(socket, out var registration))
        {
            registration = new Registration(socket, handler);
            _registrations[socket] = registration;
        }
        else if (registration.Handler != handler)
        {
            // A socket changes hands once: from its connecter (which only waits to write) to its
            // connection's transport. What it waited for belonged to the old owner.
            registration.Handler = handler;
            registration.WantsWrite = false;
            if (!registration.Parked)
            {
                registration.WantsRead = false;
            }

            UpdateHot(registration);
        }

        return registration;
    }

    /// <summary>Stops watching <paramref name="socket"/>; call before disposing it. A pending park then completes unheard.</summary>
    public void Forget(System.Net.Sockets.Socket socket)
    {
        if (_registrations.Remove(socket, out var registration))
        {
            Retire(registration);
        }
    }

    private void Retire(Registration registration)
    {
        registration.Forgotten = true;
        registration.WantsRead = false;
        registration.WantsWrite = false;
        UpdateHot(registration);
        if (!registration.Parked)
        {
            // A parked one's arguments are still in the engine's hands: its completion disposes them.
            registration.Park?.Dispose();
        }
    }

    /// <summary>Keeps <see cref="_hot"/> = registrations that wait for input unparked, or wait for writability.</summary>
    private void UpdateHot(Registration registration)
    {
        bool hot = (registration.WantsRead && !registration.Parked) || registration.WantsWrite;
        if (hot == (registration.HotIndex >= 0))
        {
            if (hot && registration.WantsWrite != registration.CountedAsWriter)
            {
                CountWriter(registration);
            }

            return;
        }

        if (hot)
        {
            registration.HotIndex = _hot.Count;
            _hot.Add(registration);
        }
        else
        {
            // Swap with the last: O(1), and the order of the rest does not matter.
            int index = registration.HotIndex;
            var last = _hot[^1];
            _hot[index] = last;
            last.HotIndex = index;
            _hot.RemoveAt(_hot.Count - 1);
            registration.HotIndex = -1;
        }

        CountWriter(registration);
    }

    private void CountWriter(Registration registration)
    {
        bool counts = registration.HotIndex >= 0 && registration.WantsWrite;
        if (counts != registration.CountedAsWriter)
        {
            registration.CountedAsWriter = counts;
            _writeWaiters += counts ? 1 : -1;
        }
    }


    /// <summary>
    /// Fills the Select lists from the hot set, parking readers that waited too long or do not fit;
    /// returns milliseconds until the next park deadline, or -1 for none.
    /// </summary>
    private int BuildSelectSet()
    {
        _readList.Clear();
        _writeList.Clear();
        _readyNow.Clear();
        _readList.Add(_wakeup.Reader);

        long now = _now;
        long nextPark = long.MaxValue;
        int readRoom = _maxSelectSet - Math.Min(_writeWaiters, _maxSelectSet);
        int selected = 0;
        int readers = 0;
        foreach (var registration in _hot)
        {
            if (registration.WantsRead && !registration.Parked)
            {
                readers++;
            }
        }

        // Backwards, so a registration that leaves the hot set swaps in one already seen; the newest
        // waiters sit at the end and keep their place in Select, the oldest are parked first.
        for (int i = _hot.Count - 1; i >= 0; i--)
        {
            var registration = _hot[i];
            if (!registration.WantsRead || registration.Parked)
            {
                continue;
            }

            bool tooLong = now - registration.ReadSince >= Tuning.Reactor.ParkDelayMilliseconds && readers > _parkAboveReaders;
            bool noRoom = _readList.Count - 1 >= readRoom;
            if (registration.MayPark && (tooLong || noRoom))
            {
                readers--;
                if (!TryPark(registration))
                {
                    _readyNow.Add(registration);
                }

                continue;
            }

            _readList.Add(registration.Socket);
            if (registration.MayPark && readers > _parkAboveReaders)
            {
                nextPark = Math.Min(nextPark, registration.ReadSince + Tuning.Reactor.ParkDelayMilliseconds);
            }
        }

        selected = _readList.Count - 1;
        int wait = -1;
        if (_writeWaiters > 0)
        {
            int writeRoom = Math.Max(0, _maxSelectSet - selected);
            int count = _hot.Count;
            int start = (int)((uint)_writeRotation % (uint)count);
            for (int k = 0; k < count && _writeList.Count < writeRoom; k++)
            {
                var registration = _hot[(start + k) % count];
                if (registration.WantsWrite)
                {
                    _writeList.Add(registration.Socket);
                }
            }

            if (_writeList.Count < _writeWaiters)
            {
                // Not all fit: the others get their turn after a short wait.
                _writeRotation = start + writeRoom;
                wait = Tuning.Reactor.WriteRotationMilliseconds;
            }
        }

        selected += _writeList.Count;
        if (selected > _largestSelectSet)
        {
            Volatile.Write(ref _largestSelectSet, selected);
        }

        Volatile.Write(ref _hotCountSnapshot, _hot.Count);
        if (nextPark != long.MaxValue)
        {
            int parkWait = (int)Math.Clamp(nextPark - now, Tuning.Reactor.ParkCheckMinimumMilliseconds, int.MaxValue);
            wait = wait < 0 ? parkWait : Math.Min(wait, parkWait);
        }

        return wait;
    }

    private void Dispatch()
    {
        foreach (var socket in _readList)
        {
            if (socket == _wakeup.Reader)
            {
                _wakeup.Drain();
                continue;
            }

            if (_registrations.TryGetValue(socket, out var registration) && registration.WantsRead && !registration.Parked)
            {
                registration.WantsRead = false;
                UpdateHot(registration);
                Invoke(registration, read: true);
            }
        }

        foreach (var socket in _writeList)
        {
            if (_registrations.TryGetValue(socket, out var registration) && registration.WantsWrite)
            {
                registration.WantsWrite = false;
                UpdateHot(registration);
                Invoke(registration, read: false);
            }
        }
    }

    private void DispatchReadyNow()
    {
        for (int i = 0; i < _readyNow.Count; i++)
        {
            var registration = _readyNow[i];
            if (!registration.Forgotten && registration.WantsRead && !registration.Parked)
            {
                registration.WantsRead = false;
                UpdateHot(registration);
                Invoke(registration, read: true);
            }
        }

        _readyNow.Clear();
    }

    /// <summary>
    /// After a Select failure: asks each socket of the hot set alone. One that fails on its own is
    /// forgotten and its handler told (so one bad socket cannot make every turn fail); the others
    /// are dispatched as Select would have.
    /// </summary>
    private void PollOneByOne()
    {
        _wakeup.Drain();
        var hot = _hot.ToArray();
        foreach (var registration in hot)
        {
            if (registration.Forgotten)
            {
                continue;
            }

            bool readable;
            bool writable;
            try
            {
                readable = registration.WantsRead && !registration.Parked && registration.Socket.Poll(0, SelectMode.SelectRead);
                writable = registration.WantsWrite && registration.Socket.Poll(0, SelectMode.SelectWrite);
            }
            catch (Exception ex)
            {
                // Disposed by its owner without Forget (its Forget may be on the way): not a bug worth a report.
                Fault(registration, ex, report: ex is not ObjectDisposedException);
                continue;
            }

            if (readable)
            {
                registration.WantsRead = false;
                UpdateHot(registration);
                Invoke(registration, read: true);
            }

            if (writable && !registration.Forgotten && registration.WantsWrite)
            {
                registration.WantsWrite = false;
                UpdateHot(registration);
                Invoke(registration, read: false);
            }
        }
    }

    /// <summary>Runs a handler; whatever it throws ends its own socket's registration, never this thread.</summary>
    private void Invoke(Registration registration, bool read)
    {
        try
        {
            if (read)
            {
                registration.Handler.OnReadable();
            }
            else
            {
                registration.Handler.OnWritable();
            }
        }
        catch (Exception ex)
        {
            Fault(registration, ex, report: true);
        }
    }

    private void Fault(Registration registration, Exception exception, bool report)
    {
        if (report)
        {
            Diagnostics.InternalErrors.Report(exception);
        }

        if (_registrations.TryGetValue(registration.Socket, out var current) && current == registration)
        {
            _registrations.Remove(registration.Socket);
        }

        Retire(registration);
        try
        {
            registration.Handler.OnFault(exception);
        }
        catch (Exception second)
        {
            // The handler cannot even close itself: close its socket so its peer at least sees the end.
            Diagnostics.InternalErrors.Report(second);
            registration.Socket.Dispose();
        }
    }


    private sealed class Registration(System.Net.Sockets.Socket socket, IReadinessHandler handler)
    {
        public System.Net.Sockets.Socket Socket { get; } = socket;

        public IReadinessHandler Handler { get; set; } = handler;

        public bool WantsRead { get; set; }

        public bool WantsWrite { get; set; }

        /// <summary>When it began waiting for input, on the loop's clock.</summary>
        public long ReadSince { get; set; }

        /// <summary>False for sockets a zero-byte receive cannot wait on: they stay in Select.</summary>
        public bool MayPark { get; set; } = true;

        /// <summary>A zero-byte receive is pending in the runtime's engine for it.</summary>
        public bool Parked { get; set; }

        /// <summary>Set by Forget: a completion that arrives later does nothing.</summary>
        public bool Forgotten { get; set; }

        /// <summary>Its place in the hot set, or -1.</summary>
        public int HotIndex { get; set; } = -1;

        public bool CountedAsWriter { get; set; }

        /// <summary>Reused by every park of this socket: parking allocates once per connection.</summary>
        public ParkArgs? Park { get; set; }
    }
}
