using System.Net.Sockets;
using Managed.Zmq.Diagnostics;
using Managed.Zmq.Engine;
using Managed.Zmq.Threading;
using Managed.Zmq.Transports;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Endpoints;

/// <summary>
/// A bound tcp:// or ipc:// endpoint: accepts connections on its I/O thread and hands each to the
/// next I/O thread (round-robin) to run its ZMTP engine.
/// </summary>
internal sealed partial class Listener : IEndpointHandle, IReadinessHandler
{
    private readonly IEndpointHost _socket;
    private readonly TransportAddress _address;
    private readonly System.Net.Sockets.Socket _listenSocket;
    private readonly IoThread _ioThread;
    private const int AcceptRetryInitialMilliseconds = Tuning.Accept.RetryInitialMilliseconds;

    private const int AcceptRetryMaximumMilliseconds = Tuning.Accept.RetryMaximumMilliseconds;

    private volatile bool _stopped;

    /// <summary>Use_Fd: the listening socket is the caller's; its ipc file is not ours to delete.</summary>
    private bool _callerSocket;

    /// <summary>Waiting for <see cref="_retryTimer"/> after a resource failure. I/O thread only.</summary>
    private ReactorTimer? _retryTimer;
    private int _retryDelay;

    /// <summary>In a failure episode: ACCEPT_FAILED went out, and goes out again only after an accept succeeds.</summary>
    private bool _failing;

    /// <summary>
    /// Not watching because the socket holds Max_Connections accepted connections: the next one to close wakes
    /// us (<see cref="OnSlotFreed"/>). I/O thread only.
    /// </summary>
    private bool _atCap;

    /// <summary>
    /// Reached the cap since the listen queue was last found empty: the trace reports the cap once per such
    /// episode, however often one freed slot lets one more connection in. I/O thread only.
    /// </summary>
    private bool _capEpisode;

    private Listener(IEndpointHost socket, TransportAddress address, System.Net.Sockets.Socket listenSocket, IoThread ioThread, string resolved)
    {
        _socket = socket;
        _address = address;
        _listenSocket = listenSocket;
        _ioThread = ioThread;
        ResolvedAddress = resolved;
    }

    public string Address => _address.Original;

    public string ResolvedAddress { get; }

    public bool IsBound => true;

    /// <summary>The listening socket's OS handle, for monitor event values.</summary>
    public int Handle => (int)_listenSocket.Handle;

    private void WatchAccept()
    {
        if (!_stopped && _retryTimer is null && !_atCap)
        {
            // Never parked: a zero-byte receive cannot wait on a listening socket.
            _ioThread.WatchRead(_listenSocket, this, mayPark: false);
        }
    }

    /// <summary>Accepts every pending connection, then waits for the next one.</summary>
    void IReadinessHandler.OnReadable()
    {
        var quota = _socket.AcceptQuota;
        while (!_stopped)
        {
            System.Net.Sockets.Socket accepted;
            try
            {
                // Poll first: on a non-blocking listener, Accept would report "no more" by throwing.
                if (!_listenSocket.Poll(0, SelectMode.SelectRead))
                {
                    _capEpisode = false;
                    break;
                }
            }
            catch (SocketException ex)
            {
                if (OnAcceptFailed(ex))
                {
                    return;
                }

                continue;
            }
            catch (ObjectDisposedException)
            {
                return;
            }

            int cap = _socket.Options.MaxConnections;
            if (!quota.TryAcquire(cap))
            {
                if (StopAtCap(cap))
                {
                    return;
                }

                continue;
            }

            // Accepting again, whatever woke us: watch again when the queue is drained.
            _atCap = false;

            try
            {
                accepted = _listenSocket.Accept();
            }
            catch (SocketException ex)
            {
                quota.Release();
                if (OnAcceptFailed(ex))
                {
                    return;
                }

                continue;
            }
            catch (ObjectDisposedException)
            {
                quota.Release();
                return;
            }

            if (DescriptorReserve.IsNearLimit((long)accepted.Handle))
            {
                // The last few descriptors belong to the runtime: refuse as if the accept had failed with EMFILE.
                accepted.Dispose();
                quota.Release();
                if (OnAcceptFailed(new SocketException((int)SocketError.TooManyOpenSockets)))
                {
                    return;
                }

                continue;
            }

            _retryDelay = 0;
            if (_socket.IsClosed)
            {
                accepted.Dispose();
                quota.Release();
                return;
            }

            ZmtpConnection connection;
            IoThread ioThread;
            try
            {
                SocketTuning.ApplyAccepted(accepted, _socket.Options);
                _socket.Monitor.Emit(SocketMonitor.Accepted, (int)accepted.Handle, ResolvedAddress);

                // The episode of failed accepts ends with the ACCEPTED that follows it, never before: a monitor
                // never shows two ACCEPT_FAILED without an ACCEPTED between them.
                _failing = false;
                ioThread = _socket.NextIoThread();
                var transport = new ReactorSocketTransport(accepted, ioThread, PeerAddressText.Describe(accepted));
                connection = new ZmtpConnection(_socket, _address.Wrap(transport, connecting: false, _socket.Options), ioThread, ResolvedAddress, connectPipe: null) { Origin = this, ReleaseSlot = quota.Release };
            }
            catch
            {
                // A bug (OnFault reports it): the connection never starts, so its slot comes back here.
                accepted.Dispose();
                quota.Release();
                throw;
            }

            ioThread.Schedule(static s => ((ZmtpConnection)s!).Start(), connection);
        }

        WatchAccept();
    }

    void IReadinessHandler.OnWritable()
    {
    }

    /// <summary>A bug in accepting (reported already): wait as after a resource failure, then carry on.</summary>
    void IReadinessHandler.OnFault(Exception exception)
    {
        if (!_stopped && _retryTimer is null)
        {
            _retryDelay = AcceptRetryMaximumMilliseconds;
            ScheduleRetry();
        }
    }

    public void Stop(int lingerMilliseconds)
    {
        if (_stopped)
        {
            return;
        }

        _stopped = true;
        _socket.AcceptQuota.Forget(this);
        int handle = Handle;

        if (_callerSocket)
        {
            // Use_Fd: the descriptor is the caller's, so disposing cannot close it, and a Dispose here would wait for
            // the reactor's readiness wait to release the handle. The reactor forgets it first, on its own thread.
            // Unbind and Close return only once we no longer use it, so the caller may close it right after.
            if (_ioThread.IsCurrent)
            {
                ReleaseCallerSocket();
            }
            else
            {
                using var released = new ManualResetEventSlim();
                _ioThread.Schedule(static s =>
                {
                    var (self, done) = ((Listener, ManualResetEventSlim))s!;
                    self.ReleaseCallerSocket();
                    done.Set();
                }, (this, released));
                released.Wait(CallerSocketReleaseTimeout);
            }
        }
        else
        {
            // Closed now, so the address is free when Unbind returns; the reactor forgets it on its own thread.
            _listenSocket.Dispose();
            _ioThread.Schedule(static s =>
            {
                var self = (Listener)s!;
                self._ioThread.Forget(self._listenSocket);
                self._retryTimer?.Cancel();
                self._retryTimer = null;
            }, this);
        }
        _socket.Monitor.Emit(SocketMonitor.Closed, handle, ResolvedAddress);
        if (_address is IpcAddress ipc && !ipc.IsAbstract && !_callerSocket)
        {
            // libzmq removes the socket file on unbind and close.
            TryDeleteFile(ipc.Path);
        }
    }

    private static readonly TimeSpan CallerSocketReleaseTimeout = TimeSpan.FromMilliseconds(Tuning.Accept.CallerSocketReleaseMilliseconds);

    private void ReleaseCallerSocket()
    {
        _retryTimer?.Cancel();
        _retryTimer = null;
        _ioThread.Forget(_listenSocket);
        _listenSocket.Dispose();
    }

    private static void TryDeleteFile(string path)
    {
        try
        {
            File.Delete(path);
        }
        catch (IOException)
        {
        }
        catch (UnauthorizedAccessException)
        {
        }
    }
}
