using System.Net.Sockets;
using Managed.Zmq.Diagnostics;
using Managed.Zmq.Engine;
using Managed.Zmq.Threading;
using Managed.Zmq.Transports;

namespace Managed.Zmq.Endpoints;

/// <summary>When not to accept: at the Max_Connections cap, and after a failed accept (descriptors or memory exhausted), with the retry timer.</summary>
internal sealed partial class Listener
{
    /// <summary>
    /// The socket holds Max_Connections accepted connections: stop watching the listening socket, so new
    /// connections wait in the kernel's listen queue (libzmq leaves them there too when it stops accepting), until
    /// an accepted connection closes. Returns false when one closed meanwhile: accept again at once.
    /// </summary>
    private bool StopAtCap(int cap)
    {
        _ioThread.Forget(_listenSocket);
        _atCap = true;
        if (!_socket.AcceptQuota.Wait(this, cap))
        {
            _atCap = false;
            return false;
        }

        if (!_capEpisode)
        {
            _capEpisode = true;
            ZmqEventSource.Log.ConnectionCapReached(cap, ResolvedAddress);
        }

        return true;
    }

    /// <summary>An accepted connection of this socket closed (any thread): accept again, on our I/O thread.</summary>
    internal void OnSlotFreed() => _ioThread.Schedule(static s => ((Listener)s!).ResumeAfterCap(), this);

    private void ResumeAfterCap()
    {
        if (!_atCap || _stopped)
        {
            return;
        }

        _atCap = false;
        if (_retryTimer is null)
        {
            // Drains what waited in the listen queue (up to the cap again), then watches.
            ((IReadinessHandler)this).OnReadable();
        }
    }

    /// <summary>
    /// An accept failed. libzmq reports each failure as ACCEPT_FAILED with the errno and tries again
    /// on the next readiness; so do we, but once per episode (until an accept succeeds), so a flood
    /// cannot flood the monitor. When the process is out of descriptors or memory the waiting
    /// connection stays readable, so watching again would spin: stop, and retry on a timer that
    /// backs off. Returns true when the listener now waits for that timer.
    /// </summary>
    private bool OnAcceptFailed(SocketException exception)
    {
        if (!_failing)
        {
            _failing = true;
            _socket.Monitor.Emit(SocketMonitor.AcceptFailed, ErrnoOf(exception), ResolvedAddress);
        }

        if (exception.SocketErrorCode is SocketError.ConnectionAborted or SocketError.ConnectionReset or SocketError.Interrupted)
        {
            // One connection went wrong between its arrival and our accept: take the next.
            return false;
        }

        // EMFILE, ENFILE, ENOBUFS, ENOMEM, or anything unforeseen: waiting is the safe answer.

        if (exception.SocketErrorCode == SocketError.TooManyOpenSockets)
        {
            DescriptorReserve.Release();
        }

        _ioThread.Forget(_listenSocket);
        ScheduleRetry();
        return true;
    }

    private void ScheduleRetry()
    {
        _retryDelay = _retryDelay == 0 ? AcceptRetryInitialMilliseconds : Math.Min(_retryDelay * 2, AcceptRetryMaximumMilliseconds);
        _retryTimer = _ioThread.AddTimer(_retryDelay, static s => ((Listener)s!).RetryAccept(), this);
    }

    private void RetryAccept()
    {
        _retryTimer = null;
        if (_stopped)
        {
            return;
        }

        if (!DescriptorReserve.TryFill())
        {
            // Descriptors are still short: accepting now would only take the runtime's room.
            ScheduleRetry();
            return;
        }

        ((IReadinessHandler)this).OnReadable();
    }

    /// <summary>
    /// The errno libzmq would report. .NET folds EMFILE and ENFILE into one SocketError and reports
    /// ENFILE back; the per-process limit (EMFILE) is by far the likelier, so that is what we say.
    /// </summary>
    private static int ErrnoOf(SocketException exception) => exception.SocketErrorCode switch
    {
        SocketError.TooManyOpenSockets => ZmqConstants.EMFILE,
        _ when OperatingSystem.IsWindows() => (int)exception.SocketErrorCode,
        _ => exception.NativeErrorCode,
    };
}
