using Managed.Zmq.Engine;
using Managed.Zmq.Transports;

namespace Managed.Zmq.Tests.Support;

/// <summary>
/// Sees every connection created for one endpoint, both ends, through the engine's test hook, from construction until
/// disposal; a subclass keeps what it needs of each.
/// </summary>
internal abstract class EndpointConnections : IDisposable
{
    private readonly string _endpoint;

    /// <summary>Starts watching; create it before anything connects to <paramref name="endpoint"/>.</summary>
    protected EndpointConnections(string endpoint)
    {
        _endpoint = endpoint;
        ZmtpConnection.CreatedForTests += OnAnyCreated;
    }

    public void Dispose() => ZmtpConnection.CreatedForTests -= OnAnyCreated;

    /// <summary>The socket transport under <paramref name="connection"/> (tcp or ipc), for its test counters and state.</summary>
    protected static ReactorSocketTransport Transport(ZmtpConnection connection) =>
        connection.Transport as ReactorSocketTransport ?? throw new InvalidOperationException("not a socket transport");

    /// <summary>A connection of the endpoint was created (on the thread that created it).</summary>
    protected abstract void OnCreated(ZmtpConnection connection);

    private void OnAnyCreated(ZmtpConnection connection)
    {
        if (connection.Endpoint == _endpoint)
        {
            OnCreated(connection);
        }
    }
}
