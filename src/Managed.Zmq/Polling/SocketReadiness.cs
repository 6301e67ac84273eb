using Managed.Zmq.Core;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Polling;

/// <summary>ZMQ_EVENTS of a socket as <see cref="PollEvents"/>, with the Poller's error rules (API §5.3).</summary>
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

        // Events applies pending pipe attach/detach news first, so a peer that just connected counts.
        int events = core.Events;
        var ready = PollEvents.None;
        if ((events & ZmqConstants.ZMQ_POLLIN) != 0)
        {
            ready |= PollEvents.In;
        }

        if ((events & ZmqConstants.ZMQ_POLLOUT) != 0)
        {
            ready |= PollEvents.Out;
        }

        return ready & requested;
    }
}
