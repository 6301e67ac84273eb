using Managed.Zmq.Inproc;
using Managed.Zmq.Internal;
using Managed.Zmq.Pipes;
using Managed.Zmq.Sockets;

namespace Managed.Zmq;

public sealed partial class Socket
{
    /// <summary>
    /// A snapshot of the peers connected now (tcp, ipc and inproc): their endpoints, routing id, socket
    /// type, ZMTP version, mechanism and ZAP user id, when they connected, what went each way and how full
    /// their queues are. Traffic goes on while it is taken; it allocates only the snapshot.
    /// </summary>
    /// <returns>One <see cref="PeerInfo"/> per connected peer, in no particular order. A connect waiting to
    /// reconnect is not a peer; a peer that left with messages still unread is not listed either.</returns>
    /// <remarks>Like every socket call, from the socket's own thread (any thread for SERVER, CLIENT and PEER). The
    /// counters are approximate while messages flow (see <see cref="PeerInfo"/>).</remarks>
    public IReadOnlyList<PeerInfo> GetPeers()
    {
        ThrowIfDisposed();
        using (_core.EnterGate())
        {
            ThrowIfClosedUnderGate();
            _core.ProcessEvents();
            bool routingIds = _core.SocketType is SocketType.Router or SocketType.Stream;
            var peers = new List<PeerInfo>();
            foreach (var pipe in _core.PatternPipes)
            {
                if (PeerSnapshot.Take(pipe, routingIds, _core.RoutingIdOf(pipe)) is { } peer)
                {
                    peers.Add(peer);
                }
            }

            return peers.AsReadOnly();
        }
    }

    /// <summary>
    /// Drops one peer's connection as a network fault would: the monitor raises <see cref="SocketMonitorEvent.Disconnected"/>
    /// (tcp, ipc), a peer that connected to us sees the connection close and reconnects by its own rules, and a
    /// connection we made is made again after <see cref="SocketOption.Reconnect_Ivl"/>. Messages queued to an
    /// accepted peer are discarded with its connection; a connect's queue waits for the next connection, as after
    /// any lost connection (with <see cref="SocketOption.Immediate"/> it goes with the connection too, as libzmq
    /// drops the pipe of a lost connection then). An inproc peer is unlinked (inproc does not reconnect).
    /// </summary>
    /// <param name="peer">A peer from this socket's <see cref="GetPeers"/>.</param>
    /// <exception cref="ZmqException"><see cref="ErrorCode"/> EINVAL when <paramref name="peer"/> is another socket's;
    /// EHOSTUNREACH when that connection has already ended (libzmq's errno for a peer that is not there).</exception>
    public void DisconnectPeer(PeerInfo peer)
    {
        ThrowIfDisposed();
        ArgumentNullException.ThrowIfNull(peer);
        using var gate = _core.EnterGate();
        ThrowIfClosedUnderGate();
        _core.ProcessEvents();
        if (peer.Pipe.Socket != _core)
        {
            ThrowHelper.ThrowZmqException(ZmqConstants.EINVAL);
        }

        if (!TryDrop(peer.Pipe, peer.Connection))
        {
            ThrowHelper.ThrowZmqException(ZmqConstants.EHOSTUNREACH);
        }
    }

    /// <summary>
    /// ROUTER and STREAM: drops the connection of the peer with routing id <paramref name="routingId"/>, as
    /// <see cref="DisconnectPeer(PeerInfo)"/> does.
    /// </summary>
    /// <param name="routingId">The id as the socket delivers it in a message's first frame.</param>
    /// <exception cref="ZmqException">ENOTSUP on other socket types; EHOSTUNREACH when no peer with that id is
    /// connected (what a ROUTER with Router_Mandatory reports for a send to it).</exception>
    public void DisconnectPeer(ReadOnlySpan<byte> routingId)
    {
        ThrowIfDisposed();
        if (_core.SocketType is not (SocketType.Router or SocketType.Stream))
        {
            ThrowHelper.ThrowZmqException(ZmqConstants.ENOTSUP);
        }

        _core.ProcessEvents();
        foreach (var pipe in _core.PatternPipes)
        {
            if (pipe.RoutingId.AsSpan().SequenceEqual(routingId) && pipe.Connection is { } connection && TryDrop(pipe, connection))
            {
                return;
            }
        }

        ThrowHelper.ThrowZmqException(ZmqConstants.EHOSTUNREACH);
    }

    /// <summary>Ends <paramref name="connection"/> if it still serves <paramref name="pipe"/>; false when it is gone.</summary>
    private bool TryDrop(Pipe pipe, PeerConnection connection)
    {
        if (pipe.IsTerminated || pipe.PeerGone || connection.Dropped || !ReferenceEquals(pipe.Connection, connection))
        {
            return false;
        }

        if (pipe is InprocPipe inproc)
        {
            if (inproc.Peer is null)
            {
                return false;
            }

            _core.DropInprocPipe(inproc);
            return true;
        }

        if (pipe.Engine is not { } engine || !ReferenceEquals(engine.Connection, connection))
        {
            return false;
        }

        connection.Dropped = true;
        engine.Drop();
        return true;
    }
}
