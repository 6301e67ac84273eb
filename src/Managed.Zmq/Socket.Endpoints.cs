using Managed.Zmq.Diagnostics;
using Managed.Zmq.Internal;
using Managed.Zmq.Transports;
using Managed.Zmq.Endpoints;
using Managed.Zmq.Inproc;
using Managed.Zmq.Pipes;

namespace Managed.Zmq;

public sealed partial class Socket
{
    /// <summary>Listens on an endpoint (<c>tcp://</c>, <c>ipc://</c>); several binds per socket are allowed.</summary>
    /// <param name="endpoint">The endpoint, e.g. <c>tcp://127.0.0.1:*</c>.</param>
    public void Bind(string endpoint)
    {
        ThrowIfDisposed();
        ArgumentNullException.ThrowIfNull(endpoint);
        using (_core.EnterGate())
        {
            ThrowIfClosedUnderGate();
            BindCore(endpoint);
        }
    }

    private void BindCore(string endpoint)
    {
        ThrowIfTerminated();
        if (TryGetInprocName(endpoint, out string? name))
        {
            int inprocError = _core.Context.Inproc.Bind(name, _core);
            if (inprocError != 0)
            {
                ThrowHelper.ThrowZmqException(inprocError);
            }

            _core.AddEndpoint(new InprocEndpoint(endpoint, bound: true, null));
            _core.LastEndpoint = endpoint;
            return;
        }

        if (endpoint.StartsWith(UdpScheme, StringComparison.Ordinal))
        {
            StartUdp(endpoint, bind: true);
            return;
        }

        var address = ParseOrThrow(endpoint, forBind: true);
        int error = Listener.TryStart(_core, address, out var listener);
        if (error != 0)
        {
            _core.Monitor.Emit(SocketMonitor.BindFailed, error, endpoint);
            ThrowHelper.ThrowZmqException(error);
        }

        _core.AddEndpoint(listener!);
        _core.LastEndpoint = listener!.ResolvedAddress;
        _core.Monitor.Emit(SocketMonitor.Listening, listener.Handle, listener.ResolvedAddress);
    }

    /// <summary>Connects to an endpoint in the background; reconnects after loss.</summary>
    /// <param name="endpoint">The endpoint, e.g. <c>tcp://localhost:5555</c>.</param>
    public void Connect(string endpoint)
    {
        ThrowIfDisposed();
        ArgumentNullException.ThrowIfNull(endpoint);
        using (_core.EnterGate())
        {
            ThrowIfClosedUnderGate();
            ConnectCore(endpoint);
        }
    }

    /// <summary>
    /// Connects a <see cref="SocketType.Peer"/> socket to an endpoint, as <see cref="Connect"/> does, and returns the
    /// routing id of the new peer at once (libzmq's <c>zmq_connect_peer</c>, RFC 51): the connection is made in the
    /// background, but the peer's queue exists from this call on, so a <see cref="Message"/> sent with this
    /// <see cref="Message.RoutingId"/> is queued (up to <see cref="SocketOption.Sndhwm"/>) until it is up, and every
    /// message from that peer arrives carrying this id. The id stays the same across reconnects; it is dropped
    /// (sends to it fail with <c>EHOSTUNREACH</c>) after <see cref="Disconnect"/> or when the peer is refused in the
    /// handshake, e.g. for not being a PEER.
    /// </summary>
    /// <param name="endpoint">The endpoint, e.g. <c>tcp://localhost:5555</c>.</param>
    /// <returns>The new peer's routing id, never 0.</returns>
    /// <exception cref="ZmqException"><see cref="ErrorCode"/> <c>ENOTSUP</c> when the socket is not a PEER and
    /// <c>EFAULT</c> when <see cref="SocketOption.Immediate"/> is on (there would be no queue to name before the
    /// connection), as libzmq refuses both; otherwise the errors of <see cref="Connect"/>.</exception>
    public uint ConnectPeer(string endpoint)
    {
        ThrowIfDisposed();
        ArgumentNullException.ThrowIfNull(endpoint);
        using (_core.EnterGate())
        {
            ThrowIfClosedUnderGate();
            if (_core.SocketType != SocketType.Peer)
            {
                ThrowHelper.ThrowZmqException(ZmqConstants.ENOTSUP);
            }

            if (_core.Options.Immediate)
            {
                ThrowHelper.ThrowZmqException(ZmqConstants.EFAULT);
            }

            return _core.RoutingIdOf(ConnectCore(endpoint));
        }
    }

    /// <summary>Connect's work, under the gate of a thread-safe type; returns the pipe the connect made.</summary>
    private Pipe ConnectCore(string endpoint)
    {
        ThrowIfTerminated();
        if (TryGetInprocName(endpoint, out string? inprocName))
        {
            return ConnectInproc(endpoint, inprocName);
        }

        if (endpoint.StartsWith(UdpScheme, StringComparison.Ordinal))
        {
            return StartUdp(endpoint, bind: false);
        }

        var address = ParseOrThrow(endpoint, forBind: false);
        _core.ProcessEvents();

        // Immediate = 0: the pipe exists at once, so messages queue up to HWM before the connection is up.
        // Immediate = 1: it joins when a connection is up, and leaves when that connection is lost.
        bool immediate = _core.Options.Immediate;
        var pipe = _core.CreatePipe(fromConnect: true, endpoint, endsWithConnection: immediate);
        if (_core.Options.TakeConnectRoutingId() is { } routingId)
        {
            pipe.RoutingId = routingId;
        }

        if (!immediate)
        {
            _core.AttachToPattern(pipe);
        }

        var connecter = new Connecter(_core, address, pipe);
        _core.AddEndpoint(connecter);
        _core.LastEndpoint = endpoint;
        connecter.Start();
        return pipe;
    }

    /// <summary>Stops listening on an endpoint and closes the connections accepted through it.</summary>
    /// <param name="endpoint">The string given to Bind, or its resolved <c>Last_Endpoint</c> form.</param>
    public void Unbind(string endpoint)
    {
        ThrowIfDisposed();
        ArgumentNullException.ThrowIfNull(endpoint);
        using (_core.EnterGate())
        {
            ThrowIfClosedUnderGate();
            ThrowIfTerminated();
            UnbindCore(endpoint);
        }
    }

    private void UnbindCore(string endpoint)
    {
        var handle = _core.RemoveEndpoint(endpoint, bound: true);
        if (handle is null)
        {
            ThrowHelper.ThrowZmqException(ZmqConstants.ENOENT);
        }

        if (handle is InprocEndpoint && TryGetInprocName(endpoint, out string? name))
        {
            _core.Context.Inproc.Unbind(name, _core);
            foreach (var pipe in _core.PatternPipes.OfType<InprocPipe>().Where(p => !p.FromConnect && p.InprocName == name).ToArray())
            {
                _core.DropInprocPipe(pipe);
            }

            return;
        }

        handle!.Stop(0);
        if (handle is UdpEndpoint udp)
        {
            _core.DetachFromPattern(udp.Pipe);
            return;
        }

        _core.CloseConnectionsFrom(handle);
    }

    /// <summary>Drops the connection made by Connect with exactly this string, with its queued messages.</summary>
    /// <param name="endpoint">The string given to Connect.</param>
    public void Disconnect(string endpoint)
    {
        ThrowIfDisposed();
        ArgumentNullException.ThrowIfNull(endpoint);
        using (_core.EnterGate())
        {
            ThrowIfClosedUnderGate();
            ThrowIfTerminated();
            DisconnectCore(endpoint);
        }
    }

    private void DisconnectCore(string endpoint)
    {
        var handle = _core.RemoveEndpoint(endpoint, bound: false);
        if (handle is InprocEndpoint { Pipe: InprocPipe inprocPipe })
        {
            _core.Context.Inproc.RemovePending(inprocPipe);
            _core.DropInprocPipe(inprocPipe);
            return;
        }

        if (handle is UdpEndpoint udp)
        {
            udp.Stop(0);
            _core.DetachFromPattern(udp.Pipe);
            return;
        }

        if (handle is not Connecter connecter)
        {
            ThrowHelper.ThrowZmqException(ZmqConstants.ENOENT);
            return;
        }

        connecter.Stop(0);
        _core.DetachFromPattern(connecter.TakePipe());
    }

    private const string UdpScheme = "udp://";

    /// <summary>
    /// udp:// (libzmq's draft transport): only a DISH binds and only a RADIO connects, anything else is
    /// ENOCOMPATPROTO as in libzmq 4.3.4; no handshake, so the pipe joins the pattern at once. Returns that pipe.
    /// </summary>
    private Pipe StartUdp(string endpoint, bool bind)
    {
        if (_core.SocketType != (bind ? SocketType.Dish : SocketType.Radio))
        {
            ThrowHelper.ThrowZmqException(ZmqConstants.ENOCOMPATPROTO);
        }

        int error = Transports.Udp.UdpAddress.TryParse(endpoint, endpoint[UdpScheme.Length..], bind, _core.Options.Ipv6, out var address);
        if (error == 0 && _core.Context.IoThreadCount == 0)
        {
            error = ZmqConstants.EMTHREAD;
        }

        if (error != 0)
        {
            ThrowHelper.ThrowZmqException(error);
        }

        // Bind and Connect call this under the gate already.
        _core.ProcessEvents();
        error = UdpEndpoint.TryStart(_core, address!, bind, _core.AttachToPattern, out var udp);
        if (error != 0)
        {
            if (bind)
            {
                _core.Monitor.Emit(SocketMonitor.BindFailed, error, endpoint);
            }

            ThrowHelper.ThrowZmqException(error);
        }

        _core.AddEndpoint(udp!);
        _core.LastEndpoint = udp!.ResolvedAddress;
        return udp.Pipe;
    }

    private InprocPipe ConnectInproc(string endpoint, string name)
    {
        var pipe = _core.ConnectInproc(name);
        _core.AddEndpoint(new InprocEndpoint(endpoint, bound: false, pipe));
        _core.LastEndpoint = endpoint;
        return pipe;
    }

    private static bool TryGetInprocName(string endpoint, [System.Diagnostics.CodeAnalysis.NotNullWhen(true)] out string? name)
    {
        const string Scheme = "inproc://";
        if (endpoint.StartsWith(Scheme, StringComparison.Ordinal))
        {
            name = endpoint[Scheme.Length..];
            if (name.Length == 0)
            {
                ThrowHelper.ThrowZmqException(ZmqConstants.EINVAL);
            }

            return true;
        }

        name = null;
        return false;
    }

    private void ThrowIfTerminated()
    {
        if (_core.IsTerminated)
        {
            ThrowHelper.ThrowZmqException(ZmqConstants.ETERM);
        }
    }

    private TransportAddress ParseOrThrow(string endpoint, bool forBind)
    {
        int error = EndpointParser.TryParse(endpoint, forBind, _core.Options.Ipv6, out var address);
        if (error == 0 && _core.Context.IoThreadCount == 0)
        {
            // libzmq: tcp and ipc need an I/O thread.
            error = ZmqConstants.EMTHREAD;
        }

        if (error == 0)
        {
            error = address!.Prepare(_core.Options, forBind);
        }

        if (error != 0)
        {
            ThrowHelper.ThrowZmqException(error);
        }

        return address!;
    }
}
