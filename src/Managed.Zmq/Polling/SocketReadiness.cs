using Managed.Zmq.Internal;
using Managed.Zmq.Sockets;

namespace Managed.Zmq.Polling;

/// <summary>ZMQ_EVENTS of a socket as <see cref="PollEvents"/>, with the Poller's error rules (as in Net.Zmq).</summary>
internal static class SocketReadiness
{
    /// <summary>
    /// Returns the requested events that are ready now. Throws ENOTSOCK for a disposed socket and
    /// ETERM once the socket's context is shut down.
    /// </summary>
    public static PollEvents Query(SocketCore core, PollEvents requested)
    {
        if (core.IsClosed)
        {
            ThrowHelper.ThrowZmqException(ZmqConstants.ENOTSOCK);
        }

        if (core.IsTerminated)
        {
            ThrowHelper.ThrowZmqException(ZmqConstants.ETERM);
        }

        if ((requested & (PollEvents.In | PollEvents.Out)) == 0)
        {
            return PollEvents.None;
        }

        // What SocketCore.Events computes, limited to the requested bits: the Poller's hot path asks for
        // In alone on busy receive streams, and skipping the POLLOUT check keeps it close to a plain Recv.
        // Pending pipe attach/detach news are applied first, so a peer that just connected counts.
        core.ProcessEvents();
        if (core.IsTerminated)
        {
            ThrowHelper.ThrowZmqException(ZmqConstants.ETERM);
        }

        if ((requested & PollEvents.In) != 0)
        {
            // A Recv's read turn left away (SocketCore.ReadTurn.cs) would hold input in the kernel the Poller waits for.
            core.ReclaimReadTurn();
        }

        var ready = PollEvents.None;

        // A thread-safe type's pattern may be in use by another thread's Send or Recv.
        using var gate = core.EnterGate();
        if ((requested & PollEvents.In) != 0 && core.Pattern.CanReceive)
        {
            ready |= PollEvents.In;
        }

        if ((requested & PollEvents.Out) != 0 && core.Pattern.CanSend)
        {
            ready |= PollEvents.Out;
        }

        return ready;
    }
}
