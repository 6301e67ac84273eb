using System.Diagnostics.CodeAnalysis;
using Managed.Zmq.Internal;
using Managed.Zmq.Patterns;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Pipes;
using Managed.Zmq.Security.Zap;
using Managed.Zmq.Sockets;

namespace Managed.Zmq;

public sealed partial class Socket
{
    /// <summary>Receives one frame into <paramref name="buffer"/>; a longer frame is truncated.</summary>
    /// <param name="buffer">Destination.</param>
    /// <param name="flags">DontWait.</param>
    /// <returns>The full frame size (may exceed the buffer), or -1 with DontWait when nothing is queued.</returns>
    public int Recv(byte[] buffer, RecvFlags flags = RecvFlags.None)
    {
        ArgumentNullException.ThrowIfNull(buffer);
        return Recv(new Span<byte>(buffer), flags);
    }

    /// <summary>Receives one frame into <paramref name="buffer"/>; a longer frame is truncated.</summary>
    /// <param name="buffer">Destination.</param>
    /// <param name="flags">DontWait.</param>
    /// <returns>The full frame size (may exceed the buffer), or -1 with DontWait when nothing is queued.</returns>
    public int Recv(Span<byte> buffer, RecvFlags flags = RecvFlags.None)
    {
        ThrowIfDisposed();
        var sink = new SpanSink(buffer);
        if (!RecvCore(ref sink, (flags & RecvFlags.DontWait) != 0))
        {
            return -1;
        }

        _core.ReceiveMore = sink.More;
        return sink.Size;
    }

    /// <summary>Receives one frame into native memory; a longer frame is truncated.</summary>
    /// <param name="buffer">Destination address.</param>
    /// <param name="size">Destination size.</param>
    /// <param name="flags">DontWait.</param>
    /// <returns>The full frame size, or -1 with DontWait when nothing is queued.</returns>
    public unsafe int Recv(nint buffer, int size, RecvFlags flags = RecvFlags.None)
    {
        ThrowIfDisposed();
        if (size < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRangeException(nameof(size), "Size cannot be negative");
        }

        if (buffer == 0 && size > 0)
        {
            ThrowHelper.ThrowArgumentException("Buffer pointer cannot be null when size is positive", nameof(buffer));
        }

        return Recv(new Span<byte>((void*)buffer, size), flags);
    }

    /// <summary>Receives one frame into <paramref name="message"/>, replacing its content.</summary>
    /// <param name="message">Destination.</param>
    /// <param name="flags">DontWait.</param>
    /// <returns>The frame size, or -1 with DontWait when nothing is queued.</returns>
    public int Recv(Message message, RecvFlags flags = RecvFlags.None)
    {
        ThrowIfDisposed();
        ArgumentNullException.ThrowIfNull(message);
        if (!message.IsInitialized)
        {
            ThrowHelper.ThrowMessageNotInitialized();
        }

        var sink = new MessageSink(message);
        if (!RecvCore(ref sink, (flags & RecvFlags.DontWait) != 0))
        {
            return -1;
        }

        _core.ReceiveMore = message.More;
        return message.Size;
    }

    /// <summary>Receives one frame of exactly <paramref name="expectSize"/> bytes into the Message's existing (pooled) buffer.</summary>
    /// <param name="message">Destination; its BufferSize must be at least <paramref name="expectSize"/>.</param>
    /// <param name="expectSize">The frame size expected.</param>
    /// <param name="flags">DontWait.</param>
    /// <returns><paramref name="expectSize"/>, or -1 with DontWait when nothing is queued.</returns>
    public int Recv(Message message, int expectSize, RecvFlags flags = RecvFlags.None)
    {
        ThrowIfDisposed();
        ArgumentNullException.ThrowIfNull(message);
        if (expectSize < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRangeException(nameof(expectSize), "Expected size cannot be negative");
        }

        if (!message.IsInitialized)
        {
            ThrowHelper.ThrowMessageNotInitialized();
        }

        if (message.BufferSize < expectSize)
        {
            ThrowHelper.ThrowZmqException(ZmqConstants.EBUFFERSMALL, "Buffer size is smaller than expected");
        }

        var sink = new ExpectedSizeSink(message, expectSize);
        if (!RecvCore(ref sink, (flags & RecvFlags.DontWait) != 0))
        {
            return -1;
        }

        _core.ReceiveMore = sink.More;
        if (!sink.SizeMatched)
        {
            ThrowHelper.ThrowZmqException(ZmqConstants.ESIZEMISMATCH, "Received size does not match expected size");
        }

        return expectSize;
    }

    /// <summary>Same as <see cref="Recv(Message, RecvFlags)"/>; the reference is never reassigned.</summary>
    /// <param name="message">Destination.</param>
    /// <param name="flags">DontWait.</param>
    /// <returns>The frame size, or -1 with DontWait when nothing is queued.</returns>
    public int Recv(ref Message message, RecvFlags flags = RecvFlags.None) => Recv(message, flags);

    /// <summary>Receives one frame as UTF-8 text, waiting for it (RCVTIMEO applies).</summary>
    /// <returns>The text.</returns>
    public string RecvString()
    {
        ThrowIfDisposed();
        var sink = default(StringSink);
        RecvCore(ref sink, dontWait: false);
        _core.ReceiveMore = sink.More;
        return sink.Text;
    }

    /// <summary>Receives one frame into a new array, waiting for it (RCVTIMEO applies).</summary>
    /// <returns>The frame.</returns>
    public byte[] RecvBytes()
    {
        ThrowIfDisposed();
        var sink = default(ArraySink);
        RecvCore(ref sink, dontWait: false);
        _core.ReceiveMore = sink.More;
        return sink.Data;
    }

    /// <summary>Receives one frame as text if one is queued, without waiting.</summary>
    /// <param name="text">The text, or null when nothing was queued.</param>
    /// <returns>true when a frame was received.</returns>
    public bool TryRecvString([NotNullWhen(true)] out string? text)
    {
        ThrowIfDisposed();
        var sink = default(StringSink);
        if (!RecvCore(ref sink, dontWait: true))
        {
            text = null;
            return false;
        }

        _core.ReceiveMore = sink.More;
        text = sink.Text;
        return true;
    }

    /// <summary>Receives one frame into <paramref name="buffer"/> if one is queued, without waiting.</summary>
    /// <param name="buffer">Destination (a longer frame is truncated).</param>
    /// <param name="bytesReceived">The full frame size, or 0.</param>
    /// <returns>true when a frame was received.</returns>
    public bool TryRecv(Span<byte> buffer, out int bytesReceived)
    {
        bytesReceived = Recv(buffer, RecvFlags.DontWait);
        if (bytesReceived < 0)
        {
            bytesReceived = 0;
            return false;
        }

        return true;
    }

    /// <summary>Receives one frame into <paramref name="message"/> if one is queued, without waiting.</summary>
    /// <param name="message">Destination.</param>
    /// <param name="bytesReceived">The frame size, or 0.</param>
    /// <returns>true when a frame was received.</returns>
    public bool TryRecv(Message message, out int bytesReceived)
    {
        bytesReceived = Recv(message, RecvFlags.DontWait);
        if (bytesReceived < 0)
        {
            bytesReceived = 0;
            return false;
        }

        return true;
    }

    /// <summary>Runs a receive; false when it would block under DontWait; throws every other failure.</summary>
    private bool RecvCore<TSink>(ref TSink sink, bool dontWait)
        where TSink : IFrameSink, allows ref struct
    {
        var status = _core.RecvFromApi(ref sink, dontWait);
        if (status == RecvStatus.Received)
        {
            return true;
        }

        if (status == RecvStatus.WouldBlock && dontWait)
        {
            LastError.Record(ZmqConstants.EAGAIN);
            return false;
        }

        StatusErrors.Throw(status);
        return false;
    }
}
