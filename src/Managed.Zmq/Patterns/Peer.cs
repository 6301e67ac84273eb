namespace Managed.Zmq.Patterns;

/// <summary>
/// PEER (RFC 51): <see cref="ServerRouting"/>'s rules, talking to PEER peers. What sets it apart from SERVER is at the
/// socket (<see cref="Socket.ConnectPeer"/> hands back the id of the pipe a connect attaches) and in the handshake
/// (PEER accepts only PEER); the routing is the same, as libzmq's PEER is its SERVER.
/// </summary>
internal sealed class Peer : ServerRouting
{
    public Peer(IPatternHost socket)
        : base(socket)
    {
    }
}
