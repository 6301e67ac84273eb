using System.Runtime.CompilerServices;
using System.Collections.Concurrent;
using Managed.Zmq.Diagnostics;
using Managed.Zmq.Engine;
using Managed.Zmq.Patterns;
using Managed.Zmq.Buffers;
using Managed.Zmq.Endpoints;
using Managed.Zmq.Inproc;
using Managed.Zmq.Options;
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Sockets;

/// <summary>
/// A socket's state behind the public <see cref="Socket"/>: options, pattern, pipes, endpoints and
/// the signal blocked calls wait on. Pattern state is touched on the user's thread only; I/O threads
/// talk to it through <see cref="Enqueue"/>, drained at the start of every socket call.
/// </summary>
internal sealed partial class SocketCore : IPipeOwner, IPatternHost, IInprocSocket
{
    private readonly ConcurrentQueue<(Pipe Pipe, PipeEventKind Kind)> _events = new();
    private readonly Dictionary<Pipe, bool> _patternPipes = [];
    private readonly List<IEndpointHandle> _endpoints = [];

    /// <summary>
    /// Pipes whose peer is gone (inproc close, lost accepted connection): they leave once their queued messages are
    /// read, or as soon as the pattern will not read them (<see cref="Pattern.Reads"/>).
    /// </summary>
    private readonly List<Pipe> _draining = [];
    private int _pendingEvents;
    private volatile bool _terminated;
    private volatile bool _closed;

    public SocketCore(ISocketContext context, SocketType socketType)
    {
        Context = context;
        SocketType = socketType;
        Options = new SocketOptions(socketType, context.Ipv6Default);
        Pattern = PatternFactory.Create(this, socketType);
        _gate = IsThreadSafeType(socketType) ? new Lock() : null;
        IsRaw = socketType == SocketType.Stream;
        Meters = new SocketMeters(socketType);
        Monitor = new SocketMonitor(Meters.TypeName);
        ZmqMetrics.Register(Meters);
    }

    /// <summary>What the metrics read of this socket (<see cref="ZmqMetrics"/>).</summary>
    public SocketMeters Meters { get; }

    /// <summary>Pipes whose peer has gone, kept until the pattern has read what they queued. Read racily (tests).</summary>
    public int DrainingPipeCount => _draining.Count;

    public ISocketContext Context { get; }

    public SocketType SocketType { get; }

    public SocketOptions Options { get; }

    public Pattern Pattern { get; private set; }

    /// <summary>
    /// True when connections carry raw bytes, not ZMTP: STREAM, and ROUTER with Router_Raw (libzmq's deprecated
    /// raw ROUTER behaves as STREAM: [id, ""] on connect, [id, bytes] for what arrives, an empty send closes).
    /// </summary>
    public bool IsRaw { get; private set; }

    /// <summary>
    /// Router_Raw was just set: a non-zero value turns this ROUTER into a raw one for the connections made from now
    /// on, as in libzmq. Returns EINVAL when peers are already attached (they speak ZMTP and cannot change), or
    /// when it would be turned off again.
    /// </summary>
    public int ApplyRouterRaw()
    {
        bool raw = Options.RouterRaw;
        if (raw == IsRaw)
        {
            return 0;
        }

        if (!raw || _patternPipes.Count > 0)
        {
            return ZmqConstants.EINVAL;
        }

        Pattern = new Patterns.RawStream(this);
        IsRaw = true;
        return 0;
    }

    public SocketSignal Signal { get; } = new();

    IPeerSignal IInprocSocket.PeerSignal => Signal;

    public SocketMonitor Monitor { get; }

    /// <summary>Accepted connections open now, across all listeners, against Max_Connections.</summary>
    public AcceptQuota AcceptQuota { get; } = new();

    /// <summary>MORE flag of the last frame received (ZMQ_RCVMORE).</summary>
    public bool ReceiveMore { get; set; }

    public string LastEndpoint { get; set; } = string.Empty;

    /// <summary>Context shut down: blocking calls fail with ETERM.</summary>
    public bool IsTerminated => _terminated;

    public bool IsClosed => _closed;

    public StreamPipe CreatePipe(bool fromConnect, string endpoint, bool endsWithConnection = false) =>
        new(this, Options.SendHwm, Options.ReceiveHwm, fromConnect) { Endpoint = endpoint, EndsWithConnection = endsWithConnection };

    public void Enqueue(Pipe pipe, PipeEventKind kind)
    {
        _events.Enqueue((pipe, kind));
        Interlocked.Increment(ref _pendingEvents);
        Signal.Notify();
        InterruptTurnWait();
    }

    /// <summary>User thread: applies attach/detach news to the pattern. Costs one volatile read when idle.</summary>
    public void ProcessEvents()
    {
        if (_gate is not null)
        {
            ProcessEventsUnderGate();
            return;
        }

        ApplyPendingEvents();
    }

    /// <summary>As <see cref="ProcessEvents()"/>; <paramref name="gateHeld"/> says the caller already holds the thread-safe gate.</summary>
    private void ProcessEvents(bool gateHeld)
    {
        if (gateHeld)
        {
            ApplyPendingEvents();
            return;
        }

        ProcessEvents();
    }

    /// <summary>
    /// A thread-safe type: pipes attach and detach under the gate its sends and receives hold. A send or receive
    /// attempt calls this with the gate already held, and then pays no second (re-entrant) enter and exit.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private void ProcessEventsUnderGate()
    {
        if (_gate!.IsHeldByCurrentThread)
        {
            ApplyPendingEvents();
            return;
        }

        lock (_gate)
        {
            ApplyPendingEvents();
        }
    }

    /// <summary>Detaches drained pipes and applies the attach/detach news queued by other threads.</summary>
    private void ApplyPendingEvents()
    {
        if (_draining.Count > 0)
        {
            DetachDrained();
        }

        if (Volatile.Read(ref _pendingEvents) == 0)
        {
            return;
        }

        while (_events.TryDequeue(out var item))
        {
            Interlocked.Decrement(ref _pendingEvents);
            Apply(item.Pipe, item.Kind);
        }
    }

    private void Apply(Pipe pipe, PipeEventKind kind)
    {
        switch (kind)
        {
            case PipeEventKind.Attached:
                AttachToPattern(pipe);
                break;
            case PipeEventKind.Connected:
                if (pipe.IsTerminated)
                {
                    break;
                }

                pipe.HasBeenConnected = true;
                AttachToPattern(pipe);
                Pattern.Connected(pipe);
                break;
            case PipeEventKind.Disconnected:
                if (_patternPipes.ContainsKey(pipe))
                {
                    Pattern.Disconnected(pipe);
                }

                break;
            case PipeEventKind.Detached:
                DetachFromPattern(pipe);
                break;
            case PipeEventKind.PeerClosed:
                pipe.PeerGone = true;
                if (StillToBeRead(pipe))
                {
                    _draining.Add(pipe);
                }
                else
                {
                    DetachFromPattern(pipe);
                }

                break;
        }
    }

    private void DetachDrained()
    {
        for (int i = _draining.Count - 1; i >= 0; i--)
        {
            var pipe = _draining[i];
            if (!StillToBeRead(pipe))
            {
                _draining.RemoveAt(i);
                DetachFromPattern(pipe);
            }
        }
    }

    /// <summary>
    /// Whether a pipe whose peer has gone must stay for the messages it queued: some are left, and the pattern will read
    /// them. Asked again at each call, since a pattern may stop reading a pipe meanwhile (REQ's next request goes to
    /// another peer).
    /// </summary>
    private bool StillToBeRead(Pipe pipe) => pipe.InboundHasData && !pipe.IsTerminated && Pattern.Reads(pipe);

    /// <summary>Detaches an inproc pipe here and tells its peer socket that this side is gone.</summary>
    public void DropInprocPipe(InprocPipe pipe)
    {
        AbandonIfUnread(pipe);
        DetachFromPattern(pipe);
        if (pipe.Peer is { } peer)
        {
            peer.Socket.Enqueue(peer, PipeEventKind.PeerClosed);
        }
    }

    /// <summary>Connects to an inproc name (before or after its bind); returns the new pipe. User thread.</summary>
    public InprocPipe ConnectInproc(string name)
    {
        ProcessEvents();
        // Both channels exist from the connect on, so messages queue before the bind; the binder's pipe takes them crossed over.
        var pipe = new InprocPipe(this, Options.SendHwm, Options.ReceiveHwm, fromConnect: true, new InprocChannel(), new InprocChannel())
        {
            InprocName = name,
            Endpoint = "inproc://" + name,
        };
        if (Options.TakeConnectRoutingId() is { } routingId)
        {
            pipe.RoutingId = routingId;
        }

        // libzmq 4.x: an inproc connect before the bind is allowed; the pipe exists and queues meanwhile.
        AttachToPattern(pipe);
        Context.Inproc.Connect(name, this, pipe);
        return pipe;
    }

    /// <summary>All pipes currently known to the pattern (user thread).</summary>
    public IEnumerable<Pipe> PatternPipes => _patternPipes.Keys;

    public void AttachToPattern(Pipe pipe)
    {
        if (pipe.IsTerminated || !_patternPipes.TryAdd(pipe, true))
        {
            return;
        }

        Meters.Track(pipe);
        if (Options.ProbeRouter && SocketType is SocketType.Router or SocketType.Dealer or SocketType.Req)
        {
            // Probe_Router: an empty message goes to every new peer first, so a ROUTER learns our id at once.
            pipe.WriteFrame(new OutboundFrame(default, more: false));
        }

        Pattern.Attach(pipe);
    }

    public void DetachFromPattern(Pipe pipe)
    {
        pipe.IsTerminated = true;
        if (_patternPipes.Remove(pipe))
        {
            Pattern.Detach(pipe);
        }

        Meters.Retire(pipe);

        pipe.DiscardInbound();
    }

    // ------------------------------------------------------------ lifetime

    /// <summary>Context shutdown: fail blocked and future blocking calls with ETERM.</summary>
    public void Terminate()
    {
        _terminated = true;
        Interlocked.MemoryBarrier();
        Signal.Notify();
        InterruptTurnWait();
    }

    /// <summary>
    /// Socket.Dispose: stop listening, drop inbound messages, and let every connection finish
    /// sending within LINGER (libzmq semantics: -1 waits, 0 discards, N waits at most N ms).
    /// </summary>
    public void Close()
    {
        if (_closed)
        {
            return;
        }

        _closed = true;
        Interlocked.MemoryBarrier();
        Signal.Notify();
        InterruptTurnWait();
        ProcessEvents();

        int linger = Context.EffectiveLinger(Options.Linger);
        List<IEndpointHandle> endpoints;
        lock (_endpoints)
        {
            endpoints = [.. _endpoints];
            _endpoints.Clear();
        }

        // What lingers is tracked so that Context.Terminate(deadline) may cut it short.
        foreach (var endpoint in endpoints)
        {
            endpoint.Stop(linger);
            if (linger != 0 && !endpoint.IsBound)
            {
                Context.TrackLingering(endpoint);
            }
        }

        IConnection[] connections;
        lock (_connections)
        {
            connections = [.. _connections];
        }

        foreach (var connection in connections)
        {
            // Nothing can be queued for a connection still in its handshake: it just goes.
            bool handshakeComplete = connection.HandshakeComplete;
            Lingerer.CloseConnection(connection, handshakeComplete ? linger : 0);
            if (linger != 0 && handshakeComplete)
            {
                Context.TrackLingering(connection);
            }
        }

        Context.Inproc.RemoveAll(this, keepQueued: linger != 0);
        Monitor.Stop();
        foreach (var pipe in _patternPipes.Keys.ToArray())
        {
            if (pipe is InprocPipe { Peer: { } peer })
            {
                // inproc: what we queued stays readable by the peer (the queue is shared), as LINGER would deliver it.
                peer.Socket.Enqueue(peer, PipeEventKind.PeerClosed);
            }

            pipe.DiscardInbound();
            AbandonIfUnread(pipe);
        }

        ZmqMetrics.Unregister(Meters);
    }

    /// <summary>
    /// An inproc connect that never linked and no longer waits (Disconnect, or Close without a
    /// lingering queue): releases what it queued, large payloads included, since nobody will read it.
    /// </summary>
    private void AbandonIfUnread(Pipe pipe)
    {
        if (pipe is InprocPipe inproc && pipe.FromConnect && Context.Inproc.IsUnlinkedAndForgotten(inproc))
        {
            inproc.InprocOutbound.Abandon();
        }
    }
}
