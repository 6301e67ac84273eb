namespace Managed.Zmq.Threading;

/// <summary>
/// What a long wait in the kernel on one OS socket looks at between the slices of that wait: news that the socket itself
/// cannot bring and that must end the wait (the read turn's, docs/ARCHITECTURE.md).
/// </summary>
internal interface IWaitNews
{
    /// <summary>True when the waiter must stop waiting. Called on the waiting thread, once per slice.</summary>
    bool HasNews { get; }
}
