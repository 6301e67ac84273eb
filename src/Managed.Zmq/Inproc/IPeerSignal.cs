namespace Managed.Zmq.Inproc;

/// <summary>
/// Wakes the socket at the other end of an inproc link (the socket core's signal; a stand-in in
/// tests). There is no engine in between, so the pipes wake each other directly.
/// </summary>
internal interface IPeerSignal
{
    /// <summary>Called after the caller made a state change visible (with a full fence); any thread, never blocks.</summary>
    void Notify();
}
