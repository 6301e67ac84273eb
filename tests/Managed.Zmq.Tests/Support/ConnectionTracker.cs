using System.Collections.Concurrent;
using Managed.Zmq.Engine;

namespace Managed.Zmq.Tests.Support;

/// <summary>
/// Tracks, weakly, every connection created for one endpoint (through the engine's test hook), so a
/// test can count how many a full garbage collection leaves alive: a count, never a memory figure.
/// </summary>
internal sealed class ConnectionTracker(string endpoint) : EndpointConnections(endpoint)
{
    private readonly ConcurrentQueue<WeakReference> _connections = new();

    /// <summary>Connections created for the endpoint so far.</summary>
    public int Created => _connections.Count;

    /// <summary>Runs a full, compacting, blocking collection and counts the connections still alive.</summary>
    public int CountAlive()
    {
        FullCollect();
        return _connections.Count(reference => reference.IsAlive);
    }

    public static void FullCollect()
    {
        GC.Collect(GC.MaxGeneration, GCCollectionMode.Forced, blocking: true, compacting: true);
        GC.WaitForPendingFinalizers();
        GC.Collect(GC.MaxGeneration, GCCollectionMode.Forced, blocking: true, compacting: true);
    }

    protected override void OnCreated(ZmtpConnection connection) => _connections.Enqueue(new WeakReference(connection));
}
