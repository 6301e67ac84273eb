using Managed.Zmq.Endpoints;
using Managed.Zmq.Engine;
using Managed.Zmq.Pipes;
using Managed.Zmq.Security.Zap;
using Managed.Zmq.Threading;

namespace Managed.Zmq.Sockets;

/// <summary>
/// The socket core as host of its endpoints and connections (<see cref="IEndpointHost"/>): listeners
/// and connecters reach the socket, and the engine's connections report their life, only through
/// these members; the socket keeps its connections only as <see cref="IConnection"/>.
/// </summary>
internal sealed partial class SocketCore : IEndpointHost
{
    private readonly HashSet<IConnection> _connections = [];

    /// <summary>PUB and XPUB accept SUBSCRIBE/CANCEL from their peers (RFC 29).</summary>
    bool IConnectionHost.AcceptsSubscriptions => SocketType is SocketType.Pub or SocketType.XPub;

    IZapEndpoint IConnectionHost.Zap => Context.Zap;

    void IConnectionHost.Notify() => Signal.Notify();

    void IConnectionHost.BeginWork() => Context.BeginWork();

    void IConnectionHost.EndWork() => Context.EndWork();

    IoThread IEndpointHost.NextIoThread() => Context.NextIoThread(Options.Affinity);

    // ------------------------------------------------------------ events from I/O threads

    /// <summary>I/O thread: a handshake completed over <paramref name="pipe"/>.</summary>
    public void OnPipeConnected(Pipe pipe, IConnection connection)
    {
        if (!pipe.FromConnect)
        {
            Enqueue(pipe, PipeEventKind.Attached);
        }

        Enqueue(pipe, PipeEventKind.Connected);
        if (_closed && !pipe.FromConnect)
        {
            // The socket closed while this handshake ran: nothing will ever read or write here.
            // (A connect pipe is different: its connecter is lingering to deliver what is queued.)
            connection.Close();
        }
    }

    /// <summary>I/O thread: the connection under <paramref name="pipe"/> ended.</summary>
    public void OnPipeDisconnected(Pipe pipe, IConnection connection, DisconnectReason reason)
    {
        if (!pipe.FromConnect)
        {
            // What already arrived stays readable, as libzmq reads a pipe up to its end: the pipe
            // leaves once drained (the same path as an inproc peer that closed).
            Enqueue(pipe, PipeEventKind.PeerClosed);
            return;
        }

        Enqueue(pipe, PipeEventKind.Disconnected);
        if (pipe.EndsWithConnection)
        {
            // Immediate: the pipe leaves with its connection, as an accepted one does (what arrived
            // stays readable); its connecter serves the next connection with a new pipe.
            Enqueue(pipe, PipeEventKind.PeerClosed);
        }
    }

    // ------------------------------------------------------------ endpoints

    public void AddEndpoint(IEndpointHandle endpoint)
    {
        lock (_endpoints)
        {
            _endpoints.Add(endpoint);
        }
    }

    /// <summary>Removes and returns the endpoint named exactly <paramref name="address"/> (or its resolved form).</summary>
    public IEndpointHandle? RemoveEndpoint(string address, bool bound)
    {
        lock (_endpoints)
        {
            for (int i = _endpoints.Count - 1; i >= 0; i--)
            {
                var endpoint = _endpoints[i];
                if (endpoint.IsBound == bound && (endpoint.Address == address || endpoint.ResolvedAddress == address))
                {
                    _endpoints.RemoveAt(i);
                    return endpoint;
                }
            }
        }

        return null;
    }

    /// <summary>An accepted connection starts: close and Unbind must reach it, even mid-handshake.</summary>
    /// <returns>false when the socket is already closed (the caller drops the connection).</returns>
    public bool TrackConnection(IConnection connection)
    {
        lock (_connections)
        {
            if (_closed)
            {
                return false;
            }

            _connections.Add(connection);
            return true;
        }
    }

    public void UntrackConnection(IConnection connection)
    {
        lock (_connections)
        {
            _connections.Remove(connection);
        }
    }

    /// <summary>Connections accepted through <paramref name="listener"/> (Unbind closes them).</summary>
    public void CloseConnectionsFrom(object listener)
    {
        IConnection[] connections;
        lock (_connections)
        {
            connections = [.. _connections];
        }

        foreach (var connection in connections)
        {
            if (connection.Origin == listener)
            {
                connection.Close();
            }
        }
    }
}
