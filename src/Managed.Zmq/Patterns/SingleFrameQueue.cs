using Managed.Zmq.Pipes;

namespace Managed.Zmq.Patterns;

/// <summary>
/// The receive side SERVER and CLIENT share (RFC 41): a fair queue that delivers single-part messages only. A
/// multipart message from a peer is dropped whole, as libzmq drops it, before the next message is looked at.
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

            // The queue keeps to this pipe until the dropped message's last frame is consumed.
            do
            {
                queue.Consume(pipe, frame);
            }
            while (frame.More && queue.TryPeek(out pipe, out frame));
        }

        return false;
    }
}
