using Managed.Zmq.Diagnostics;
using Managed.Zmq.Internal;
using Managed.Zmq.Sockets;

namespace Managed.Zmq;

public sealed partial class Socket
{
    /// <summary>
    /// Publishes this socket's events on a PAIR socket bound at <paramref name="endpoint"/> (inproc
    /// only); connect a <see cref="SocketType.Pair"/> socket there to read two-frame events.
    /// A null endpoint stops monitoring.
    /// </summary>
    /// <param name="endpoint">An <c>inproc://</c> endpoint, or null to stop.</param>
    /// <param name="events">Bitmask of <c>ZMQ_EVENT_*</c> values (at most 0xFFFF).</param>
    public void Monitor(string? endpoint, int events = ZmqConstants.ZMQ_EVENT_ALL)
    {
        ThrowIfDisposed();
        using var gate = _core.EnterGate();
        ThrowIfClosedUnderGate();

        // As libzmq: once the socket has seen its context's shutdown, even stopping a monitor is refused.
        ThrowIfTerminated();
        if (endpoint is null)
        {
            _core.Monitor.Stop();
            return;
        }

        if (!endpoint.StartsWith("inproc://", StringComparison.Ordinal))
        {
            ThrowHelper.ThrowZmqException(ZmqConstants.EPROTONOSUPPORT);
        }

        if (events < 0 || events > 0xFFFF)
        {
            ThrowHelper.ThrowZmqException(ZmqConstants.EINVAL);
        }

        // As libzmq: a monitor already running stops first (MONITOR_STOPPED, its PAIR closed and its name free), so the
        // same endpoint can be monitored again with another mask, and a bind that fails leaves no monitor running.
        _core.Monitor.Stop();
        var pair = new SocketCore(_core.Context, SocketType.Pair);
        int error = _core.Context.Inproc.Bind(endpoint["inproc://".Length..], pair);
        if (error != 0)
        {
            // The PAIR that never bound goes (its meters were registered with it), or each refused call would keep one.
            pair.Close();
            ThrowHelper.ThrowZmqException(error);
        }

        _core.Monitor.Start(pair, events);
    }

    /// <summary>Same as <see cref="Monitor(string?, int)"/> with a typed mask.</summary>
    /// <param name="endpoint">An <c>inproc://</c> endpoint, or null to stop.</param>
    /// <param name="events">The events to publish.</param>
    public void Monitor(string? endpoint, SocketMonitorEvent events = SocketMonitorEvent.All) => Monitor(endpoint, (int)events);
}
