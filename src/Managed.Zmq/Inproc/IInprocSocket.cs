using Managed.Zmq.Options;
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Inproc;

/// <summary>
/// What <see cref="InprocRegistry"/> asks of a socket it links (the socket core; a stand-in in tests):
/// the settings both ends' pipes are sized and named from, the signal the peer's pipe wakes, and the
/// pipe events that attach the link.
/// </summary>
internal interface IInprocSocket : IPipeOwner
{
    /// <summary>HWMs (summed over both ends, as libzmq does for inproc) and the routing id the peer sees.</summary>
    SocketOptions Options { get; }

    /// <summary>Reported to the peer as its connection's peer socket type.</summary>
    SocketType SocketType { get; }

    /// <summary>Woken by the peer's pipe when it commits or consumes a message.</summary>
    IPeerSignal PeerSignal { get; }

    /// <summary>Closed, lingering on a pending connect: the link delivers what was queued, then ends.</summary>
    bool IsClosed { get; }
}
