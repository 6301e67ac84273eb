using Managed.Zmq.Pipes;

namespace Managed.Zmq.Inproc;

/// <summary>
/// The inproc endpoint names of one context. inproc has no ZMTP and no engine: a link is two pipes
/// sharing a channel each way (<see cref="InprocChannel"/>), crossed over. Connect may come before
/// Bind (libzmq 4.x).
/// </summary>
internal sealed class InprocRegistry
{
    private readonly object _lock = new();
    private readonly Dictionary<string, IInprocSocket> _bound = [];
    private readonly Dictionary<string, List<(IInprocSocket Socket, InprocPipe Pipe)>> _pending = [];

    /// <summary>Binds <paramref name="name"/> to <paramref name="socket"/>; links connects that waited. Returns 0 or EADDRINUSE.</summary>
    public int Bind(string name, IInprocSocket socket)
    {
        lock (_lock)
        {
            if (!_bound.TryAdd(name, socket))
            {
                return ZmqConstants.EADDRINUSE;
            }

            // Linked under the lock, so a pipe is always either pending or linked to a peer
            // (see IsUnlinkedAndForgotten).
            if (_pending.Remove(name, out var waiting))
            {
                foreach (var (connector, pipe) in waiting)
                {
                    Link(name, connector, pipe, socket);
                }
            }
        }

        return 0;
    }

    /// <summary>Connects <paramref name="pipe"/> of <paramref name="socket"/> to the name, now or when it is bound.</summary>
    public void Connect(string name, IInprocSocket socket, InprocPipe pipe)
    {
        lock (_lock)
        {
            if (!_bound.TryGetValue(name, out var binder))
            {
                if (!_pending.TryGetValue(name, out var list))
                {
                    _pending[name] = list = [];
                }

                list.Add((socket, pipe));
                return;
            }

            Link(name, socket, pipe, binder);
        }
    }

    public bool IsBound(string name)
    {
        lock (_lock)
        {
            return _bound.ContainsKey(name);
        }
    }

    public bool Unbind(string name, IInprocSocket socket)
    {
        lock (_lock)
        {
            return _bound.TryGetValue(name, out var owner) && owner == socket && _bound.Remove(name);
        }
    }

    /// <summary>
    /// Forgets everything <paramref name="socket"/> bound or is waiting to connect to, except, when
    /// it closes with a LINGER other than 0, pending connects with messages queued: libzmq keeps
    /// those, and a socket that binds the name later still receives them.
    /// </summary>
    public void RemoveAll(IInprocSocket socket, bool keepQueued)
    {
        lock (_lock)
        {
            foreach (var name in _bound.Where(pair => pair.Value == socket).Select(pair => pair.Key).ToArray())
            {
                _bound.Remove(name);
            }

            RemovePendingWhere(item => item.Socket == socket && !(keepQueued && item.Pipe.OutboundHasData));
        }
    }

    /// <summary>
    /// True when <paramref name="pipe"/> (a connect's) was never linked to a binder and no longer
    /// waits for one: nobody will ever read what it queued.
    /// </summary>
    public bool IsUnlinkedAndForgotten(InprocPipe pipe)
    {
        lock (_lock)
        {
            return pipe.Peer is null && !_pending.Values.Any(list => list.Exists(item => item.Pipe == pipe));
        }
    }

    public void RemovePending(InprocPipe pipe)
    {
        lock (_lock)
        {
            RemovePendingWhere(item => item.Pipe == pipe);
        }
    }

    /// <summary>
    /// Context termination, every socket closed: the connects still waiting for a name (kept because their sockets
    /// closed with messages queued and a LINGER other than 0) will never be linked. Releases what they queued, so
    /// that zero-copy free callbacks run and pooled buffers go back, as libzmq's termination ends its pending inproc
    /// connects. True when any of them held a message.
    /// </summary>
    public bool AbandonPending()
    {
        List<InprocPipe> pipes;
        lock (_lock)
        {
            pipes = [.. _pending.Values.SelectMany(static list => list.Select(static item => item.Pipe))];
            _pending.Clear();
        }

        bool discarded = false;
        foreach (var pipe in pipes)
        {
            discarded |= pipe.OutboundHasData;
            pipe.InprocOutbound.Abandon();
        }

        return discarded;
    }

    /// <summary>Names that connects wait for, as many as there are names with a pending connect. Tests.</summary>
    public int PendingNameCount
    {
        get
        {
            lock (_lock)
            {
                return _pending.Count;
            }
        }
    }

    /// <summary>
    /// Forgets the pending connects that match, and a name once none waits for it: a process that connects to
    /// ever-new names that are never bound must not keep one entry per name. Under the lock.
    /// </summary>
    private void RemovePendingWhere(Predicate<(IInprocSocket Socket, InprocPipe Pipe)> match)
    {
        foreach (var (name, list) in _pending)
        {
            // Removing the current entry while enumerating a Dictionary is allowed since .NET Core 3.0.
            if (list.RemoveAll(match) > 0 && list.Count == 0)
            {
                _pending.Remove(name);
            }
        }
    }

    private static void Link(string name, IInprocSocket connector, InprocPipe connectPipe, IInprocSocket binder)
    {
        // libzmq sums both sides for inproc: capacity = sender SNDHWM + receiver RCVHWM, 0 on either meaning no limit.
        var bindPipe = new InprocPipe(
            binder,
            SumHwm(binder.Options.SendHwm, connector.Options.ReceiveHwm),
            binder.Options.ReceiveHwm,
            fromConnect: false,
            outbound: connectPipe.InprocInbound,
            inbound: connectPipe.InprocOutbound)
        {
            PeerIdentity = connector.Options.RoutingId.ToArray(),
            PeerSignal = connector.PeerSignal,
            Peer = connectPipe,
            InprocName = name,
            Endpoint = "inproc://" + name,
        };

        connectPipe.SendHwm = SumHwm(connector.Options.SendHwm, binder.Options.ReceiveHwm);
        connectPipe.PeerIdentity = binder.Options.RoutingId.ToArray();
        connectPipe.Peer = bindPipe;
        connectPipe.PeerSignal = binder.PeerSignal;
        string endpoint = bindPipe.Endpoint;
        bindPipe.Connection = new PeerConnection { LocalEndpoint = endpoint, RemoteEndpoint = endpoint, PeerSocketType = connector.SocketType };
        connectPipe.Connection = new PeerConnection { LocalEndpoint = endpoint, RemoteEndpoint = endpoint, PeerSocketType = binder.SocketType };

        binder.Enqueue(bindPipe, PipeEventKind.Attached);
        binder.Enqueue(bindPipe, PipeEventKind.Connected);
        connector.Enqueue(connectPipe, PipeEventKind.Connected);
        if (connector.IsClosed)
        {
            // A lingering connect of a closed socket: deliver what it queued, then the pipe goes.
            binder.Enqueue(bindPipe, PipeEventKind.PeerClosed);
        }
    }

    private static int SumHwm(int a, int b) => a == 0 || b == 0 ? 0 : (int)Math.Min((long)a + b, int.MaxValue);
}
