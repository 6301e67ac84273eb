using System.Buffers;
using Managed.Zmq.Core;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Patterns;

/// <summary>
/// Sends a (un)subscription to one publisher in the form its ZMTP version expects: SUBSCRIBE and
/// CANCEL commands to 3.1 peers, 0x01/0x00 messages to 3.0 peers (RFC 37 §Publish-Subscribe, L12).
/// </summary>
internal static class SubscriptionWriter
{
    public static void Write(Pipe pipe, bool subscribe, ReadOnlySpan<byte> topic)
    {
        bool asCommand = pipe.PeerMinorVersion >= 1;
        int length = asCommand
            ? ZmtpSubscription.GetCommandFrameLength(subscribe, topic.Length)
            : ZmtpSubscription.GetMessageFrameLength(topic.Length);

        byte[]? rented = null;
        Span<byte> frame = length <= 256 ? stackalloc byte[256] : (rented = ArrayPool<byte>.Shared.Rent(length));
        int written = asCommand
            ? ZmtpSubscription.WriteCommandFrame(frame, subscribe, topic)
            : ZmtpSubscription.WriteMessageFrame(frame, subscribe, topic);
        pipe.WriteRaw(frame[..written], countsAsMessage: !asCommand);
        if (rented is not null)
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }
}
