using Managed.Zmq.Internal;

namespace Managed.Zmq.Buffers;

/// <summary>
/// Releases the content of a message (an <see cref="IGuardedContent"/>, the public Message) that was
/// collected without being disposed, so that Message itself needs no finalizer.
/// </summary>
/// <remarks>
/// <para>Allocating an object with a finalizer registers it with the finalization queue, which
/// costs far more than a plain allocation (docs/ARCHITECTURE.md, section 4);
/// with a finalizer on Message, that registration was the largest cost of a rent-send-dispose
/// of a small pooled or zero-copy message.</para>
/// <para>A guard references its message, so when the message is lost the guard's finalizer still
/// reaches its fields (the GC keeps what a finalizable object references alive until its finalizer
/// has run). A disposed message gives its guard back and the next message reuses it: the
/// registration is paid once per guard, not once per message. Guards are never visible to callers,
/// so recycling them cannot let a stale Message reference touch a later one.</para>
/// </remarks>
internal sealed class MessageGuard
{
    public const int CacheSize = Tuning.Pools.MessageGuardCacheSize;

    private IGuardedContent? _message;

    private MessageGuard()
    {
    }

    ~MessageGuard() => _message?.ReleaseLostContent();

    /// <summary>A guard watching <paramref name="message"/>, reused when one is cached on this thread.</summary>
    public static MessageGuard Watch(IGuardedContent message) => Watch(message, ThreadCaches.Current);

    /// <summary>A guard watching <paramref name="message"/>, reused when one is cached in <paramref name="caches"/> (the calling thread's).</summary>
    public static MessageGuard Watch(IGuardedContent message, ThreadCaches caches)
    {
        MessageGuard guard;
        int count = caches.GuardCount;
        var cache = caches.Guards;
        if ((uint)(count - 1) < (uint)cache.Length)
        {
            count--;
            guard = cache[count]!;
            cache[count] = null;
            caches.GuardCount = count;
        }
        else
        {
            guard = new MessageGuard();
        }

        guard._message = message;
        return guard;
    }

    /// <summary>
    /// Stops watching (the message released its content itself) and keeps the guard for reuse in
    /// <paramref name="caches"/>, the calling thread's.
    /// </summary>
    public void Release(ThreadCaches caches)
    {
        _message = null;
        int count = caches.GuardCount;
        var cache = caches.Guards;
        if ((uint)count < (uint)cache.Length)
        {
            cache[count] = this;
            caches.GuardCount = count + 1;
        }

        // A guard beyond the cache watches nothing: its finalizer runs once and finds no message.
    }
}
