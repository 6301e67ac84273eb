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
        ThrowIfTerminated();
        if (TryGetInprocName(endpoint, out string? inprocName))
        {
            ConnectInproc(endpoint, inprocName);
            return;
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
    }

    /// <summary>Stops listening on an endpoint and closes the connections accepted through it.</summary>
    /// <param name="endpoint">The string given to Bind, or its resolved <c>Last_Endpoint</c> form.</param>
    public void Unbind(string endpoint)
    {
        ThrowIfDisposed();
        ArgumentNullException.ThrowIfNull(endpoint);
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
        _core.CloseConnectionsFrom(handle);
    }

    /// <summary>Drops the connection made by Connect with exactly this string, with its queued messages.</summary>
    /// <param name="endpoint">The string given to Connect.</param>
    public void Disconnect(string endpoint)
    {
        ThrowIfDisposed();
        ArgumentNullException.ThrowIfNull(endpoint);
        var handle = _core.RemoveEndpoint(endpoint, bound: false);
        if (handle is InprocEndpoint { Pipe: InprocPipe inprocPipe })
        {
            _core.Context.Inproc.RemovePending(inprocPipe);
            _core.DropInprocPipe(inprocPipe);
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

    private void ConnectInproc(string endpoint, string name)
    {
        var pipe = _core.ConnectInproc(name);
        _core.AddEndpoint(new InprocEndpoint(endpoint, bound: false, pipe));
        _core.LastEndpoint = endpoint;
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
