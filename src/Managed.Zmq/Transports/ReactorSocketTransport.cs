using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks.Sources;
using Managed.Zmq.Threading;

namespace Managed.Zmq.Transports;

/// <summary>
/// <see cref="IByteTransport"/> over a non-blocking OS socket driven by its <see cref="IoThread"/>'s
/// reactor: an operation is first tried at once, and only when the kernel says "would block" does it
/// wait for readiness. Its continuation then runs inline on the I/O thread: no thread pool, no
/// allocation per operation (the two value-task sources are reused). While it waits for input the
/// reactor may park the socket (see <see cref="IoThread"/>); nothing here receives until OnReadable.
/// </summary>
internal sealed partial class ReactorSocketTransport : IByteTransport, IReadinessHandler, IValueTaskSource<int>, IValueTaskSource
{
    private readonly System.Net.Sockets.Socket _socket;
    private readonly IoThread _thread;

    private ManualResetValueTaskSourceCore<int> _receiveCore;
    private Memory<byte> _receiveBuffer;
    private bool _receivePending;

    private ManualResetValueTaskSourceCore<bool> _sendCore;
    private ReadOnlyMemory<byte> _sendRemaining;
    private bool _sendPending;

    private bool _disposed;

    /// <summary>The last read came back short: the kernel buffer was empty after it.</summary>
    private bool _drained;

    public ReactorSocketTransport(System.Net.Sockets.Socket socket, IoThread thread, string peerAddress)
    {
        _socket = socket;
        _thread = thread;
        _socket.Blocking = false;
        PeerAddress = peerAddress;
        Handle = (int)socket.Handle;
        _corkable = IsCorkable(socket);
    }

    public string PeerAddress { get; }

    public int Handle { get; }

    public string LocalEndpoint => DescribeEndpoint(() => _socket.LocalEndPoint);

    public string RemoteEndpoint => DescribeEndpoint(() => _socket.RemoteEndPoint);

    /// <summary>An OS endpoint in ZeroMQ's spelling; empty when the OS has none or the socket is gone.</summary>
    private static string DescribeEndpoint(Func<System.Net.EndPoint?> read)
    {
        try
        {
            return read() switch
            {
                System.Net.IPEndPoint ip => TcpAddress.Format(ip),
                System.Net.Sockets.UnixDomainSocketEndPoint unix when unix.ToString() is { Length: > 0 } path => "ipc://" + path,
                _ => string.Empty,
            };
        }
        catch (Exception ex) when (ex is System.Net.Sockets.SocketException or ObjectDisposedException)
        {
            return string.Empty;
        }
    }

    public ValueTask<int> ReceiveAsync(Memory<byte> buffer) => Receive(buffer, lendable: false);

    public ValueTask<int> ReceiveLendableAsync(Memory<byte> buffer) => Receive(buffer, lendable: true);

    private ValueTask<int> Receive(Memory<byte> buffer, bool lendable)
    {
        if (_disposed)
        {
            return ValueTask.FromException<int>(new ObjectDisposedException(nameof(ReactorSocketTransport)));
        }

        if (!_drained)
        {
            int received = _socket.Receive(buffer.Span, SocketFlags.None, out var error);
            if (error == SocketError.Success)
            {
                // A read that did not fill the buffer emptied the kernel's: the next one would only
                // say "would block", so it waits for readiness instead (one system call saved per wake-up).
                _drained = received < buffer.Length;
                return new ValueTask<int>(received);
            }

            if (error != SocketError.WouldBlock)
            {
                return ValueTask.FromException<int>(new SocketException((int)error));
            }
        }

        _receiveBuffer = buffer;
        _receiveCore.Reset();
        _receivePending = true;

        // The kernel held nothing more (or a short read said so): a borrower of this receive waits before it receives.
        _lentReadFilled = false;

        // Published last: a borrower takes the turn only from this state, so it finds the receive set up.
        Volatile.Write(ref _turn, lendable ? TurnLoop : TurnLoopOnly);
        _thread.WatchRead(_socket, this);
        return new ValueTask<int>(this, _receiveCore.Version);
    }

    public ValueTask SendAsync(ReadOnlyMemory<byte> data)
    {
        if (_disposed)
        {
            return ValueTask.FromException(new ObjectDisposedException(nameof(ReactorSocketTransport)));
        }

        var error = TrySend(ref data);
        if (error == SocketError.Success)
        {
            return default;
        }

        if (error != SocketError.WouldBlock)
        {
            return ValueTask.FromException(new SocketException((int)error));
        }

        _sendRemaining = data;
        _sendCore.Reset();
        _sendPending = true;
        _thread.WatchWrite(_socket, this);
        return new ValueTask(this, _sendCore.Version);
    }

    /// <summary>
    /// Send system calls made so far, whole or partial (a test's measure: how many a message costs). Sends are
    /// made by one thread at a time (the write loop, or the user thread's direct write while the loop is parked),
    /// so a plain increment suffices.
    /// </summary>
    internal long SendCalls { get; private set; }

    /// <summary>
    /// The most bytes <see cref="TrySendNow"/> offers the kernel (0: it sends nothing, as with a full buffer), so a
    /// test can cut a direct write at every point; no limit unless a test sets one.
    /// </summary>
    internal int TrySendNowLimit { get; set; } = int.MaxValue;

    public int TrySendNow(ReadOnlySpan<byte> data)
    {
        if (_disposed)
        {
            return -1;
        }

        try
        {
            SendCalls++;
            if (data.Length > TrySendNowLimit)
            {
                if (TrySendNowLimit == 0)
                {
                    return 0;
                }

                data = data[..TrySendNowLimit];
            }

            int sent = _socket.Send(data, SocketFlags.None, out var error);
            return error switch
            {
                SocketError.Success => sent,
                SocketError.WouldBlock => 0,
                _ => -1,
            };
        }
        catch (ObjectDisposedException)
        {
            // Closed by the I/O thread meanwhile (the handle's reference count kept the descriptor valid).
            return -1;
        }
    }

    /// <summary>Sends as much as the kernel takes; Success means all of it went.</summary>
    private SocketError TrySend(ref ReadOnlyMemory<byte> data)
    {
        while (!data.IsEmpty)
        {
            SendCalls++;
            int sent = _socket.Send(data.Span, SocketFlags.None, out var error);
            if (error != SocketError.Success)
            {
                return error;
            }

            if (_corked)
            {
                CorkedBytes += sent;
            }

            data = data[sent..];
        }

        return SocketError.Success;
    }

    void IReadinessHandler.OnReadable()
    {
        if (!_receivePending || _disposed || !TakeTurnForInput(out int pendingTurn))
        {
            return;
        }

        int received = _socket.Receive(_receiveBuffer.Span, SocketFlags.None, out var error);
        if (error == SocketError.WouldBlock)
        {
            Volatile.Write(ref _turn, pendingTurn);
            _thread.WatchRead(_socket, this);
            return;
        }

        Volatile.Write(ref _turn, TurnBusy);

        _drained = error == SocketError.Success && received < _receiveBuffer.Length;
        _receivePending = false;
        _receiveBuffer = default;
        if (error == SocketError.Success)
        {
            _receiveCore.SetResult(received);
        }
        else
        {
            _receiveCore.SetException(new SocketException((int)error));
        }
    }

    void IReadinessHandler.OnWritable()
    {
        if (!_sendPending || _disposed)
        {
            return;
        }

        var error = TrySend(ref _sendRemaining);
        if (error == SocketError.WouldBlock)
        {
            _thread.WatchWrite(_socket, this);
            return;
        }

        _sendPending = false;
        _sendRemaining = default;
        if (error == SocketError.Success)
        {
            _sendCore.SetResult(true);
        }
        else
        {
            _sendCore.SetException(new SocketException((int)error));
        }
    }

    /// <summary>The reactor caught a fault in this transport's handling and forgot its socket: end the connection.</summary>
    void IReadinessHandler.OnFault(Exception exception) => Dispose();

    /// <summary>Closes the socket; pending operations fail (on a later turn of the I/O thread, never inline).</summary>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        if (!_thread.IsCurrent)
        {
            // The reactor's registrations belong to its thread.
            _thread.Schedule(static s => ((ReactorSocketTransport)s!).Dispose(), this);
            return;
        }

        _disposed = true;
        InterruptLentWait();
        _thread.Forget(_socket);

        try
        {
            _socket.Shutdown(SocketShutdown.Both);
        }
        catch (SocketException)
        {
            // Already reset by the peer: closing is all that is left to do.
        }
        catch (ObjectDisposedException)
        {
        }

        _socket.Dispose();
        if (_receivePending || _sendPending)
        {
            _thread.Schedule(static s => ((ReactorSocketTransport)s!).FailPending(), this);
        }
    }

    private void FailPending()
    {
        if (_receivePending && TurnAllowsFailure())
        {
            _receivePending = false;
            _receiveCore.SetException(new ObjectDisposedException(nameof(ReactorSocketTransport)));
        }

        if (_sendPending)
        {
            _sendPending = false;
            _sendCore.SetException(new ObjectDisposedException(nameof(ReactorSocketTransport)));
        }
    }

    int IValueTaskSource<int>.GetResult(short token) => _receiveCore.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource<int>.GetStatus(short token) => _receiveCore.GetStatus(token);

    void IValueTaskSource<int>.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
        => _receiveCore.OnCompleted(continuation, state, token, flags);

    void IValueTaskSource.GetResult(short token) => _sendCore.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource.GetStatus(short token) => _sendCore.GetStatus(token);

    void IValueTaskSource.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
        => _sendCore.OnCompleted(continuation, state, token, flags);
}
