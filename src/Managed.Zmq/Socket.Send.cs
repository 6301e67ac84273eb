using System.Buffers;
using System.Text;
using Managed.Zmq.Internal;
using Managed.Zmq.Patterns;
using Managed.Zmq.Buffers;
using Managed.Zmq.Sockets;

namespace Managed.Zmq;

public sealed partial class Socket
{
    /// <summary>Sends one frame (a copy of <paramref name="data"/>).</summary>
    /// <param name="data">The frame.</param>
    /// <param name="flags">DontWait, SendMore.</param>
    /// <returns>true when queued; false with DontWait when the send would block.</returns>
    public bool Send(byte[] data, SendFlags flags = SendFlags.None)
    {
        ArgumentNullException.ThrowIfNull(data);
        return Send(new ReadOnlySpan<byte>(data), flags);
    }

    /// <summary>Sends one frame (a copy of <paramref name="data"/>).</summary>
    /// <param name="data">The frame.</param>
    /// <param name="flags">DontWait, SendMore.</param>
    /// <returns>true when queued; false with DontWait when the send would block.</returns>
    public bool Send(ReadOnlySpan<byte> data, SendFlags flags = SendFlags.None)
    {
        ThrowIfDisposed();
        var status = data.Length >= Tuning.Frames.LargeFrame && data.Length <= MessagePool.MaxBucketSize && !_core.Options.EncryptsFrames
            ? SendLargeCopy(data, flags)
            : _core.SendFromApi(new Pipes.OutboundFrame(data, (flags & SendFlags.SendMore) != 0), (flags & SendFlags.DontWait) != 0);
        if (status == SendStatus.Sent)
        {
            return true;
        }

        if (status == SendStatus.WouldBlock && (flags & SendFlags.DontWait) != 0)
        {
            LastError.Record(ZmqConstants.EAGAIN);
            return false;
        }

        StatusErrors.Throw(status);
        return false;
    }

    /// <summary>Sends one frame copied from native memory.</summary>
    /// <param name="data">Address of the bytes.</param>
    /// <param name="size">Number of bytes.</param>
    /// <param name="flags">DontWait, SendMore.</param>
    /// <returns>true when queued; false with DontWait when the send would block.</returns>
    public unsafe bool Send(nint data, int size, SendFlags flags = SendFlags.None)
    {
        ThrowIfDisposed();
        if (size < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRangeException(nameof(size), "Size cannot be negative");
        }

        if (data == 0 && size > 0)
        {
            ThrowHelper.ThrowArgumentException("Data pointer cannot be null when size is positive", nameof(data));
        }

        return Send(new ReadOnlySpan<byte>((void*)data, size), flags);
    }

    /// <summary>Sends one frame holding the UTF-8 encoding of <paramref name="text"/>.</summary>
    /// <param name="text">The text.</param>
    /// <param name="flags">DontWait, SendMore.</param>
    /// <returns>true when queued; false with DontWait when the send would block.</returns>
    public bool Send(string text, SendFlags flags = SendFlags.None)
    {
        ArgumentNullException.ThrowIfNull(text);
        ThrowIfDisposed();
        int maxBytes = Encoding.UTF8.GetMaxByteCount(text.Length);
        if (maxBytes <= Tuning.Frames.TextStackLimit)
        {
            Span<byte> buffer = stackalloc byte[Tuning.Frames.TextStackLimit];
            int length = Encoding.UTF8.GetBytes(text, buffer);
            return Send(buffer[..length], flags);
        }

        byte[] rented = ArrayPool<byte>.Shared.Rent(maxBytes);
        try
        {
            int length = Encoding.UTF8.GetBytes(text, rented);
            return Send(rented.AsSpan(0, length), flags);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }

    /// <summary>
    /// Sends a Message, moving its content into the socket: afterwards the Message is empty and
    /// reusable; a pooled buffer returns to its pool, a zero-copy buffer's free callback runs.
    /// </summary>
    /// <param name="message">The frame.</param>
    /// <param name="flags">DontWait, SendMore.</param>
    /// <returns>The number of bytes sent.</returns>
    public int Send(Message message, SendFlags flags = SendFlags.None)
    {
        ThrowIfDisposed();
        ArgumentNullException.ThrowIfNull(message);
        if (!message.IsInitialized)
        {
            ThrowHelper.ThrowMessageNotInitialized();
        }

        int size = message.Content.Length;
        bool more = (flags & SendFlags.SendMore) != 0;
        bool dontWait = (flags & SendFlags.DontWait) != 0;
        if (size < Tuning.Frames.LargeFrame)
        {
            // Small frames are copied into the queue, zero-copy ones included: the copy costs less than
            // carrying a reference to the write loop, and the free callback is deferred off this thread.
            var status = _core.SendFromApi(new Pipes.OutboundFrame(message.Content, more) { RoutingId = message.PeekRoutingId, Group = message.PeekGroup }, dontWait);
            if (status != SendStatus.Sent)
            {
                // As in Net.Zmq: Send(Message) reports would-block by throwing, even with DontWait.
                StatusErrors.Throw(status);
            }

            // A sent message is left empty, its routing id 0 included, as libzmq leaves it.
            message.ClearAddressing();

            // A DontWait send must not wait for anything, the deferred callbacks' room included.
            message.ReleaseAfterSend(mayWait: !dontWait);
            return size;
        }

        // Large: pipes queue the bytes by reference and the write loop sends them from the Message's own
        // memory, then releases it: the free callback runs after the last byte has left, never here inside
        // Send. Zero-copy memory below Tuning.Frames.CopyCallerMemoryBelow (a policy, at this threshold
        // by default) is copied by each tcp or ipc pipe instead (it has no room for the header); if no pipe
        // kept a reference, the callback is due once Send returns, as for a small frame.
        var payload = message.CreatePayload();
        // CURVE encrypts every frame anyway, so there the copy into the queue is the cheaper path.
        var result = _core.SendFromApi(new Pipes.OutboundFrame(message.Content, !_core.Options.EncryptsFrames ? payload : null, more) { RoutingId = message.PeekRoutingId, Group = message.PeekGroup }, dontWait);

        if (result != SendStatus.Sent)
        {
            StatusErrors.Throw(result);
        }

        message.ClearAddressing();

        message.DetachInto(payload);
        if (payload.ReleaseFromSend(mayWait: !dontWait, out int ticket))
        {
            message.HoldDeferredRelease(ticket);
        }

        return size;
    }

    /// <summary>
    /// A large span is copied once into a pooled native buffer that the write loop sends from and
    /// then returns: no large segment is allocated on the managed heap per message (the queue would
    /// otherwise hold up to HWM such copies), and the bytes reach the wire without a second copy.
    /// </summary>
    private SendStatus SendLargeCopy(ReadOnlySpan<byte> data, SendFlags flags)
    {
        var payload = Buffers.HeadroomCopy.Create(data);
        try
        {
            return _core.SendFromApi(new Pipes.OutboundFrame(payload.Span, payload, (flags & SendFlags.SendMore) != 0), (flags & SendFlags.DontWait) != 0);
        }
        finally
        {
            // The pipes that queued it hold their own references; if none did, the buffer goes back now.
            payload.ReleaseFromSend(mayWait: true, out _);
        }
    }
}
