using Managed.Zmq.Pipes;
using Managed.Zmq.Transports.Udp;

namespace Managed.Zmq.Endpoints;

/// <summary>
/// A udp:// endpoint of a RADIO (connect) or DISH (bind), as libzmq 4.3.4 makes them: one pipe, attached at once
/// (there is no handshake to wait for, and a RADIO's udp pipe takes every group), served by one
/// <see cref="UdpEngine"/> for the endpoint's life.
/// </summary>
internal sealed class UdpEndpoint : IEndpointHandle
{
    private readonly UdpEngine _engine;

    private UdpEndpoint(string address, string resolved, bool bound, StreamPipe pipe, UdpEngine engine)
    {
        Address = address;
        ResolvedAddress = resolved;
        IsBound = bound;
        Pipe = pipe;
        _engine = engine;
    }

    public string Address { get; }

    public string ResolvedAddress { get; }

    public bool IsBound { get; }

    /// <summary>The endpoint's one pipe, which leaves the pattern when the endpoint is unbound or disconnected.</summary>
    public StreamPipe Pipe { get; }

    /// <summary>
    /// Opens the socket and attaches its pipe: a DISH binds <paramref name="address"/> and receives, a RADIO sends to
    /// it. Returns 0 or the errno of a failed bind.
    /// </summary>
    public static int TryStart(IEndpointHost host, UdpAddress address, bool bind, Action<Pipe> attach, out UdpEndpoint? endpoint)
    {
        endpoint = null;
        var pipe = host.CreatePipe(fromConnect: !bind, address.Original);
        pipe.TakesEveryGroup = !bind;
        int error = UdpEngine.TryStart(host, pipe, address, sends: !bind, out var engine, out int port);
        if (error != 0)
        {
            return error;
        }

        endpoint = new UdpEndpoint(address.Original, bind ? address.FormatBound(port) : address.Original, bind, pipe, engine!);
        attach(pipe);
        return 0;
    }

    public void Stop(int lingerMilliseconds) => _engine.CloseWhenDrained(lingerMilliseconds);
}
