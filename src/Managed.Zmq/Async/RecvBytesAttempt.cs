
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;
using Managed.Zmq.Sockets;

namespace Managed.Zmq.Async;

/// <summary>RecvBytesAsync: one frame into a new array.</summary>
internal readonly struct RecvBytesAttempt : IAsyncAttempt<byte[]>
{
    public bool IsSend => false;

    public bool TryExecute(SocketCore core, out byte[] result)
    {
        var sink = default(ArraySink);
        if (!AsyncSocketCalls.TryRecv(core, ref sink))
        {
            result = null!;
            return false;
        }

        core.ReceiveMore = sink.More;
        result = sink.Data;
        return true;
    }

    public void Abandon()
    {
    }
}
