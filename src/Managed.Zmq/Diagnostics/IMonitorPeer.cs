namespace Managed.Zmq.Diagnostics;

/// <summary>
/// The PAIR socket a <see cref="SocketMonitor"/> publishes its events on, as the monitor sees it: it
/// sends without waiting and closes it when the monitor stops. The socket core implements it.
/// </summary>
internal interface IMonitorPeer
{
    /// <summary>Sends one frame without waiting; false when it could not go (nobody reads, HWM reached).</summary>
    bool TrySend(ReadOnlySpan<byte> frame, bool more);

    void Close();
}
