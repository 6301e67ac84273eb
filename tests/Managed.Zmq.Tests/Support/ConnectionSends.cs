using System.Collections.Concurrent;
using Managed.Zmq.Engine;

namespace Managed.Zmq.Tests.Support;

/// <summary>
/// Counts the send system calls of every connection created for one endpoint, both ends (through the engine's test
/// hook): how many a message costs, a count, never a time.
/// </summary>
internal sealed class ConnectionSends(string endpoint) : EndpointConnections(endpoint)
{
    private readonly ConcurrentQueue<ZmtpConnection> _connections = new();

    /// <summary>Send system calls made so far by the connections of the endpoint.</summary>
    public long Calls => _connections.Sum(connection => Transport(connection).SendCalls);

    /// <summary>Times the endpoint's connections set or cleared TCP_CORK so far.</summary>
    public long CorkChanges => _connections.Sum(connection => Transport(connection).CorkChanges);

    /// <summary>Bytes the endpoint's connections' write loops sent while corked.</summary>
    public long CorkedBytes => _connections.Sum(connection => Transport(connection).CorkedBytes);

    /// <summary>The OS socket handles of the endpoint's connections, for a test to read their kernel options.</summary>
    public IEnumerable<int> Handles => _connections.Select(connection => Transport(connection).Handle);

    /// <summary>Limits every direct write of the endpoint's connections to <paramref name="bytes"/> (int.MaxValue: none).</summary>
    public void LimitDirectWrites(int bytes)
    {
        foreach (var connection in _connections)
        {
            Transport(connection).TrySendNowLimit = bytes;
        }
    }

    /// <summary>Connections created for the endpoint so far.</summary>
    public int Count => _connections.Count;

    protected override void OnCreated(ZmtpConnection connection) => _connections.Enqueue(connection);
}
