
using Managed.Zmq.Endpoints;
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Inproc;

/// <summary>An inproc bind or connect as the socket tracks it; the links themselves live in <see cref="InprocRegistry"/>.</summary>
internal sealed class InprocEndpoint : IEndpointHandle
{
    public InprocEndpoint(string address, bool bound, InprocPipe? pipe)
    {
        Address = address;
        IsBound = bound;
        Pipe = pipe;
    }

    public string Address { get; }

    public string ResolvedAddress => Address;

    public bool IsBound { get; }

    /// <summary>The connect side's pipe (null for a bind).</summary>
    public InprocPipe? Pipe { get; }

    public void Stop(int lingerMilliseconds)
    {
        // Nothing runs in the background for inproc; SocketCore.Close tells each peer directly.
    }
}
