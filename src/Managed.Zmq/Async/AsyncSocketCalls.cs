using Managed.Zmq.Internal;
using Managed.Zmq.Patterns;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Pipes;
using Managed.Zmq.Security.Zap;
using Managed.Zmq.Sockets;

namespace Managed.Zmq.Async;

/// <summary>
/// The socket calls behind <see cref="SocketAsyncExtensions"/>, made on <see cref="SocketCore"/> directly so
/// that a pending operation never holds the public <see cref="Socket"/> (which would keep an undisposed
/// socket from being finalized) and so that a would-block costs no exception.
/// </summary>
internal static class AsyncSocketCalls
{
    /// <summary>
    /// Sends a frame without waiting. false: would block; throws every other failure. <paramref name="routingId"/>
    /// names the peer for SERVER and PEER (a <see cref="Message.RoutingId"/>; 0 for none), <paramref name="group"/> the
    /// DISHes of a RADIO (a <see cref="Message.Group"/>; empty for none).
    /// </summary>
    public static bool TrySend(SocketCore core, ReadOnlySpan<byte> frame, bool more, uint routingId = 0, ReadOnlySpan<byte> group = default)
    {
        ThrowIfClosed(core);
        var status = core.SendFromApi(new OutboundFrame(frame, more) { RoutingId = routingId, Group = group }, dontWait: true);
        if (status == SendStatus.Sent)
        {
            return true;
        }

        if (status != SendStatus.WouldBlock)
        {
            throw StatusErrors.Create(status);
        }

        return false;
    }

    /// <summary>
    /// Sends a frame after the first of its message was accepted. It does not wait: HWMs count whole
    /// messages, so the rest of a message is always accepted (as in Net.Zmq).
    /// </summary>
    public static void SendRemaining(SocketCore core, ReadOnlySpan<byte> frame, bool more)
    {
        ThrowIfClosed(core);
        var status = core.SendFromApi(new OutboundFrame(frame, more), dontWait: false);
        if (status != SendStatus.Sent)
        {
            throw StatusErrors.Create(status);
        }
    }

    /// <summary>
    /// Receives a frame without waiting. false: nothing queued; throws every other failure. The caller
    /// stores the frame's MORE flag in <see cref="SocketCore.ReceiveMore"/>, as the public receives do.
    /// </summary>
    public static bool TryRecv<TSink>(SocketCore core, ref TSink sink)
        where TSink : IFrameSink, allows ref struct
    {
        ThrowIfClosed(core);
        var status = core.RecvFromApi(ref sink, dontWait: true);
        if (status == RecvStatus.Received)
        {
            return true;
        }

        if (status != RecvStatus.WouldBlock)
        {
            throw StatusErrors.Create(status);
        }

        return false;
    }

    /// <summary>Receives a later frame of a message; delivery is atomic, so it is already queued.</summary>
    public static void RecvRemaining<TSink>(SocketCore core, ref TSink sink)
        where TSink : IFrameSink, allows ref struct
    {
        ThrowIfClosed(core);
        var status = core.RecvFromApi(ref sink, dontWait: false);
        if (status != RecvStatus.Received)
        {
            throw StatusErrors.Create(status);
        }
    }

    private static void ThrowIfClosed(SocketCore core)
    {
        if (core.IsClosed)
        {
            ThrowHelper.ThrowObjectDisposedException(nameof(Socket));
        }
    }
}
