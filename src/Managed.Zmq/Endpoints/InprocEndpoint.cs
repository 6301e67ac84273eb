using Managed.Zmq.Pipes;

namespace Managed.Zmq.Endpoints;

/// <summary>An inproc bind or connect as the socket tracks it; the links themselves live in <see cref="Inproc.InprocRegistry"/>.</summary>
internal sealed class InprocEndpoint : IEndpointHandle
{
    public InprocEndpoint(string address, bool bound, Pipe? pipe)
    {
        Address = address;
        IsBound = bound;
        Pipe = pipe;
    }

    public string Address { get; }

    public string ResolvedAddress => Address;

    public bool IsBound { get; }

    /// <summary>The connect side's pipe (null for a bind).</summary>
    public Pipe? Pipe { get; }

    public void Stop(int lingerMilliseconds)
    {
        // Nothing runs in the background for inproc; SocketCore.Close tells each peer directly.
    }
}
