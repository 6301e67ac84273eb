using Managed.Zmq.Pipes;

namespace Managed.Zmq.Patterns;

/// <summary>
/// The receive side of the thread-safe types (SERVER and CLIENT, RFC 41; GATHER, RFC 49; CHANNEL, RFC 52): a fair
/// queue that delivers single-part messages only. A multipart message from a peer is dropped whole, as libzmq drops
/// it, before the next message is looked at; the connection stays up.
/// </summary>
internal static class SingleFrameQueue
{
    /// <summary>Peeks the next single-part message, dropping any multipart ones ahead of it.</summary>
    public static bool TryPeek(FairQueue queue, out Pipe pipe, out InboundFrame frame)
    {
        while (queue.TryPeek(out pipe, out frame))
        {
            if (!frame.More)
            {
                return true;
            }

            queue.DropMessage(pipe, frame);
        }

        return false;
    }

    /// <summary>Delivers the next single-part message as it lies (CLIENT, GATHER, CHANNEL; SERVER stamps its routing id).</summary>
    public static RecvStatus Receive<TSink>(FairQueue queue, ref TSink sink)
        where TSink : IFrameSink, allows ref struct
    {
        if (!TryPeek(queue, out var pipe, out var frame))
        {
            return RecvStatus.WouldBlock;
        }

        sink.Deliver(frame);
        queue.Consume(pipe, frame);
        return RecvStatus.Received;
    }
}
