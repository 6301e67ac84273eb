using System.Buffers;
using Managed.Zmq.Patterns.Subscriptions;
using Managed.Zmq.Wire;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Pipes;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Patterns;

/// <summary>
/// Queues a (un)subscription for one publisher. It is queued as a SUBSCRIBE/CANCEL command, the
/// 3.1 form (RFC 37 §Publish-Subscribe); the engine rewrites it as a 0x01/0x00 message when the
/// peer turns out to speak 3.0 (docs/libzmq-behaviour.md L12), since the peer's version is unknown until the handshake.
/// </summary>
internal static class SubscriptionWriter
{
    public static void Write(Pipe pipe, bool subscribe, ReadOnlySpan<byte> topic)
    {
        int length = ZmtpSubscription.GetCommandFrameLength(subscribe, topic.Length);
        byte[]? rented = null;
        Span<byte> frame = length <= 256 ? stackalloc byte[256] : (rented = ArrayPool<byte>.Shared.Rent(length));
        int written = ZmtpSubscription.WriteCommandFrame(frame, subscribe, topic);
        pipe.WriteRaw(frame[..written], countsAsMessage: false);
        if (rented is not null)
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }

    /// <summary>Queues a SUBSCRIBE for every topic of <paramref name="topics"/> (a new or re-established publisher).</summary>
    public static void WriteAll(Pipe pipe, TopicSet topics)
    {
        var visitor = new SubscribeAll(pipe);
        topics.ForEach(ref visitor);
    }

    private readonly struct SubscribeAll(Pipe pipe) : ITrieWalkVisitor<int>
    {
        public bool Done => false;

        public bool Visit(ReadOnlySpan<byte> key, ref int value)
        {
            Write(pipe, subscribe: true, key);
            return true;
        }
    }
}
