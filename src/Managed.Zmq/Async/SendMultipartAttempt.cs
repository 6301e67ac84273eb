using Managed.Zmq.Internal;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;
using Managed.Zmq.Sockets;

namespace Managed.Zmq.Async;

/// <summary>
/// SendMultipartAsync: waits only for the first frame; once it is accepted the others follow at once,
/// because HWMs count whole messages (as in Net.Zmq). Frames are consumed as <c>SendMultipart</c> consumes them.
/// </summary>
internal readonly struct SendMultipartAttempt : IAsyncAttempt<bool>
{
    /// <summary>The frames; still owned by the caller, emptied as they are sent.</summary>
    private readonly MultipartMessage _message;

    public SendMultipartAttempt(MultipartMessage message)
    {
        _message = message;
    }

    public bool IsSend => true;

    public bool TryExecute(SocketCore core, out bool result)
    {
        result = true;
        int count = _message.Count;
        for (int i = 0; i < count; i++)
        {
            if (!_message[i].IsInitialized)
            {
                ThrowHelper.ThrowMessageNotInitialized();
            }
        }

        // The first frame's routing id names the peer of a SERVER or PEER, and its group the DISHes of a RADIO,
        // as Send(Message) passes them; a sent frame is left without either, as Send(Message) leaves it.
        var first = _message[0];
        if (!AsyncSocketCalls.TrySend(core, first.Content, more: count > 1, first.PeekRoutingId, first.PeekGroup))
        {
            return false;
        }

        first.ClearAddressing();
        first.ReleaseAfterSend(mayWait: false);
        for (int i = 1; i < count; i++)
        {
            var frame = _message[i];
            AsyncSocketCalls.SendRemaining(core, frame.Content, more: i < count - 1);
            frame.ReleaseAfterSend(mayWait: false);
        }

        return true;
    }

    public void Abandon()
    {
    }
}
