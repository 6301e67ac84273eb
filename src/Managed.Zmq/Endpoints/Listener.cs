using System.Net.Sockets;
using Managed.Zmq.Diagnostics;
using Managed.Zmq.Engine;
using Managed.Zmq.Threading;
using Managed.Zmq.Sockets;
using Managed.Zmq.Transports;

namespace Managed.Zmq.Endpoints;

/// <summary>
/// A bound tcp:// or ipc:// endpoint: accepts connections on its I/O thread and hands each to the
/// next I/O thread (round-robin) to run its ZMTP engine.
/// </summary>
internal sealed class Listener : IEndpointHandle, IReadinessHandler
{
    private readonly SocketCore _socket;
    private readonly TransportAddress _address;
    private readonly System.Net.Sockets.Socket _listenSocket;
    private readonly IoThread _ioThread;
    /// <summary>First wait before accepting again after the process ran out of descriptors or memory.</summary>
    private const int AcceptRetryInitialMilliseconds = 10;

    /// <summary>
    /// The longest such wait: how late, at most, the listener notices that descriptors are free again.
    /// Each retry costs one failing accept, so this also bounds what an exhausted process spends on it.
    /// </summary>
    private const int AcceptRetryMaximumMilliseconds = 500;

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

    private Listener(SocketCore socket, TransportAddress address, System.Net.Sockets.Socket listenSocket, IoThread ioThread, string resolved)
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

    /// <summary>Binds and listens synchronously (Bind reports EADDRINUSE at once); returns 0 or an errno.</summary>
    public static int TryStart(SocketCore socket, TransportAddress address, out Listener? listener)
    {
        listener = null;
        var options = socket.Options;
        System.Net.Sockets.Socket? listenSocket = null;
        if (options.UseFd >= 0)
        {
            return TryStartOnCallerSocket(socket, address, options.UseFd, out listener);
        }

        try
        {
            var endPoint = address.GetBindEndPoint();
            listenSocket = address.CreateSocket(endPoint.AddressFamily);
            if (address is IpcAddress ipc && !ipc.IsAbstract)
            {
                // A stale file from a dead process must not block a new bind (libzmq replaces it).
                TryDeleteFile(ipc.Path);
            }

            if (endPoint.AddressFamily == AddressFamily.InterNetworkV6)
            {
                listenSocket.DualMode = options.Ipv6;
            }

            if (address is TcpAddress && options.BindToDevice.Length > 0)
            {
                if (!OperatingSystem.IsLinux())
                {
                    listenSocket.Dispose();
                    return ZmqConstants.ENOTSUP;
                }

                // SO_BINDTODEVICE (SOL_SOCKET 1, option 25); an unknown device fails the bind with ENODEV.
                try
                {
                    listenSocket.SetRawSocketOption(1, 25, System.Text.Encoding.ASCII.GetBytes(options.BindToDevice + "\0"));
                }
                catch (SocketException)
                {
                    listenSocket.Dispose();
                    return ZmqConstants.ENODEV;
                }
            }

            if (address is TcpAddress && OperatingSystem.IsLinux())
            {
                // libzmq sets SO_REUSEADDR on listeners so a restarted process can rebind at once. Set
                // it raw (SOL_SOCKET 1, SO_REUSEADDR 2): .NET's ReuseAddress also sets SO_REUSEPORT on
                // Linux, which would let a second socket listen on the same port instead of EADDRINUSE.
                listenSocket.SetRawSocketOption(1, 2, BitConverter.GetBytes(1));
            }

            DescriptorReserve.TryFill();
            listenSocket.Bind(endPoint);
            listenSocket.Listen(Math.Max(1, options.Backlog));
            string resolved = address.FormatBound(listenSocket.LocalEndPoint!);
            listener = Launch(socket, address, listenSocket, resolved, callerSocket: false);
            return 0;
        }
        catch (SocketException ex)
        {
            listenSocket?.Dispose();
            return ex.SocketErrorCode switch
            {
                SocketError.AddressAlreadyInUse => ZmqConstants.EADDRINUSE,
                SocketError.AddressNotAvailable => ZmqConstants.EADDRNOTAVAIL,
                SocketError.AccessDenied => ZmqConstants.EACCES,
                SocketError.NoBufferSpaceAvailable => ZmqConstants.ENOBUFS,
                _ => ZmqConstants.EINVAL,
            };
        }
    }

    /// <summary>Makes the listener of a bound, listening socket and starts accepting on its I/O thread.</summary>
    private static Listener Launch(SocketCore socket, TransportAddress address, System.Net.Sockets.Socket listenSocket, string resolved, bool callerSocket)
    {
        var listener = new Listener(socket, address, listenSocket, socket.Context.NextIoThread(socket.Options.Affinity), resolved) { _callerSocket = callerSocket };
        listenSocket.Blocking = false;
        listener._ioThread.Schedule(static s => ((Listener)s!).WatchAccept(), listener);
        return listener;
    }

    /// <summary>
    /// Use_Fd: listens on a socket the caller already bound and put in the listening state (libzmq uses it
    /// instead of creating one, for socket activation). The caller keeps the descriptor: we never close it.
    /// Last_Endpoint is what the socket is bound to, as libzmq reads it back.
    /// </summary>
    private static int TryStartOnCallerSocket(SocketCore socket, TransportAddress address, int fd, out Listener? listener)
    {
        listener = null;
        System.Net.Sockets.Socket listenSocket;
        try
        {
            listenSocket = new System.Net.Sockets.Socket(new SafeSocketHandle(fd, ownsHandle: false));
        }
        catch (SocketException)
        {
            return ZmqConstants.EINVAL;
        }

        try
        {
            string resolved = address.FormatBound(listenSocket.LocalEndPoint!);
            listener = Launch(socket, address, listenSocket, resolved, callerSocket: true);
            return 0;
        }
        catch (Exception ex) when (ex is SocketException or InvalidCastException or NullReferenceException)
        {
            // Not a bound socket of this endpoint's family.
            listenSocket.Dispose();
            return ZmqConstants.EINVAL;
        }
    }

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
            _failing = false;
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
                SocketTuning.Apply(accepted, _socket.Options);
                _socket.Monitor.Emit(SocketMonitor.Accepted, (int)accepted.Handle, ResolvedAddress);
                ioThread = _socket.Context.NextIoThread(_socket.Options.Affinity);
                var transport = new ReactorSocketTransport(accepted, ioThread, PeerAddressText.Describe(accepted));
                connection = new ZmtpConnection(_socket, _address.Wrap(transport, connecting: false, _socket.Options), ioThread, ResolvedAddress, connectPipe: null) { Origin = this, Quota = quota };
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

    /// <summary>Use_Fd: how long Stop waits for the I/O thread to let go of the caller's socket (it normally takes a wake-up).</summary>
    private static readonly TimeSpan CallerSocketReleaseTimeout = TimeSpan.FromSeconds(5);

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
