namespace Managed.Zmq;

/// <summary>Readiness events a <c>Poller</c> can wait for and report.</summary>
[Flags]
public enum PollEvents : short
{
    /// <summary>No event.</summary>
    None = 0,

    /// <summary>At least one frame can be received without waiting.</summary>
    In = 1,

    /// <summary>A send would not block.</summary>
    Out = 2,

    /// <summary>Error condition; never reported for sockets, as in libzmq.</summary>
    Err = 4,

    /// <summary>Priority data; accepted in requests and never reported.</summary>
    Pri = 8,
}
