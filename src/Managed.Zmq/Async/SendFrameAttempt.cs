
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;
using Managed.Zmq.Sockets;

namespace Managed.Zmq.Async;

/// <summary>SendAsync of bytes: one frame, copied when the send happens.</summary>
internal readonly struct SendFrameAttempt : IAsyncAttempt<int>
{
    /// <summary>The frame; the caller keeps it unchanged until the task completes.</summary>
    private readonly ReadOnlyMemory<byte> _data;

    public SendFrameAttempt(ReadOnlyMemory<byte> data)
    {
        _data = data;
    }

    public bool IsSend => true;

    public bool TryExecute(SocketCore core, out int result)
    {
        result = _data.Length;
        return AsyncSocketCalls.TrySend(core, _data.Span, more: false);
    }

    public void Abandon()
    {
    }
}
