
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;
using Managed.Zmq.Sockets;

namespace Managed.Zmq.Async;

/// <summary>
/// RecvMultipartAsync: waits for the first frame; the rest of the message is then already queued
/// (delivery is atomic). The first frame's Message is kept across tries so a retry allocates nothing.
/// </summary>
internal struct RecvMultipartAttempt : IAsyncAttempt<MultipartMessage>
{
    /// <summary>The Message the first frame is received into; handed to the result on success.</summary>
    private Message? _first;

    public readonly bool IsSend => false;

    public bool TryExecute(SocketCore core, out MultipartMessage result)
    {
        _first ??= new Message();
        var firstSink = new MessageSink(_first);
        if (!AsyncSocketCalls.TryRecv(core, ref firstSink))
        {
            result = null!;
            return false;
        }

        bool more = _first.More;
        core.ReceiveMore = more;
        result = new MultipartMessage();
        result.Add(_first);
        _first = null;
        try
        {
            while (more)
            {
                var frame = new Message();
                result.Add(frame);
                var sink = new MessageSink(frame);
                AsyncSocketCalls.RecvRemaining(core, ref sink);
                more = frame.More;
                core.ReceiveMore = more;
            }
        }
        catch
        {
            result.Dispose();
            throw;
        }

        return true;
    }

    public void Abandon()
    {
        _first?.Dispose();
        _first = null;
    }
}
