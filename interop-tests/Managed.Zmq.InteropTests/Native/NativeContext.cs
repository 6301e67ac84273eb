using Managed.Zmq.InteropTests.Infrastructure;

namespace Managed.Zmq.InteropTests.Native;

/// <summary>A libzmq context (zmq_ctx_new / zmq_ctx_term).</summary>
internal sealed class NativeContext : IPeer
{
    private nint _handle;

    public NativeContext()
    {
        _handle = LibZmq.zmq_ctx_new();
        if (_handle == 0)
            throw new NativeZmqException("zmq_ctx_new", LibZmq.zmq_errno());
    }

    public nint Handle => _handle != 0 ? _handle : throw new ObjectDisposedException(nameof(NativeContext));

    public NativeSocket Socket(SocketType type) => new(this, type);

    IEnd IPeer.Socket(SocketType type) => Socket(type);

    /// <summary>Terminates the context. Every NativeSocket sets ZMQ_LINGER 0, so this cannot wait on unsent data.</summary>
    public void Dispose()
    {
        var handle = Interlocked.Exchange(ref _handle, 0);
        if (handle == 0)
            return;
        while (LibZmq.zmq_ctx_term(handle) != 0 && LibZmq.zmq_errno() == LibZmq.EINTR)
        {
        }
    }
}
