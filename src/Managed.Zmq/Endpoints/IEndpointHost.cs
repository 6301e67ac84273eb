using Managed.Zmq.Engine;
using Managed.Zmq.Threading;

namespace Managed.Zmq.Endpoints;

/// <summary>
/// The socket as its listeners and connecters see it: a connection host, plus what accepting and
/// connecting need. The socket core implements it; endpoints name no socket class.
/// </summary>
internal interface IEndpointHost : IConnectionHost
{
    bool IsClosed { get; }

    /// <summary>Accepted connections open now, across all listeners, against Max_Connections.</summary>
    AcceptQuota AcceptQuota { get; }

    /// <summary>The I/O thread for a new listener or connection, by the socket's Affinity option.</summary>
    IoThread NextIoThread();
}
