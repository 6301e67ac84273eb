using System.Collections.Concurrent;
using Managed.Zmq.Engine;

namespace Managed.Zmq.Tests.Support;

/// <summary>
/// The read side of every connection created for one endpoint, both ends (through the engine's test hook): whether a
/// read loop offers a large body it began to the read turn, and how many bodies a Recv took over. States and counts,
/// never times.
/// </summary>
internal sealed class ConnectionReads(string endpoint) : EndpointConnections(endpoint)
{
    private readonly ConcurrentQueue<ZmtpConnection> _connections = new();

    /// <summary>
    /// A read loop of the endpoint waits for the rest of a large body it began, in a receive a Recv may take over: the
    /// body is offered and the receive pending, lendable and not lent (the offer is set before the receive starts, and
    /// the receive may first read without waiting). It stays so until input comes or a Recv takes the turn.
    /// </summary>
    public bool OffersLargeFrame => _connections.Any(connection => connection.OffersLargeFrame && Transport(connection).ReceiveLendable);

    /// <summary>Large bodies a Recv took over from a read loop of the endpoint so far.</summary>
    public long LargeFramesTakenOver => _connections.Sum(connection => connection.LargeFramesTakenOver);

    protected override void OnCreated(ZmtpConnection connection) => _connections.Enqueue(connection);
}
