using Managed.Zmq.Core;

namespace Managed.Zmq.Polling;

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
