
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;
using Managed.Zmq.Sockets;

namespace Managed.Zmq.Async;

/// <summary>RecvStringAsync: one frame decoded as UTF-8.</summary>
internal readonly struct RecvStringAttempt : IAsyncAttempt<string>
{
    public bool IsSend => false;

    public bool TryExecute(SocketCore core, out string result)
    {
        var sink = default(StringSink);
        if (!AsyncSocketCalls.TryRecv(core, ref sink))
        {
            result = null!;
            return false;
        }

        core.ReceiveMore = sink.More;
        result = sink.Text;
        return true;
    }

    public void Abandon()
    {
    }
}
