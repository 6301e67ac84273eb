using Managed.Zmq.Options;

namespace Managed.Zmq.Patterns;

/// <summary>
/// What a pattern asks of the socket it routes for (the socket core; a stand-in in tests): only its
/// options, which decide the routing variants (ROUTER_MANDATORY, REQ_RELAXED, XPUB_NODROP...).
/// </summary>
internal interface IPatternHost
{
    /// <summary>The socket's options, read when a frame is routed so a change applies to the next one.</summary>
    SocketOptions Options { get; }
}
