
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Pipes;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Patterns;

/// <summary>
/// A socket type's routing rules (RFC 28–31): which pipe a frame goes to and which pipe the next
/// frame comes from. Runs on the user's thread only; sees peers only as <see cref="Pipe"/>.
/// </summary>
internal abstract class Pattern
{
    protected Pattern(IPatternHost socket)
    {
        Socket = socket;
    }

    protected IPatternHost Socket { get; }

    /// <summary>A pipe joined the socket.</summary>
    public abstract void Attach(Pipe pipe);

    /// <summary>A pipe left; it must not be used again.</summary>
    public abstract void Detach(Pipe pipe);

    /// <summary>A handshake completed over <paramref name="pipe"/> (send subscriptions, identify ROUTER peers...).</summary>
    public virtual void Connected(Pipe pipe)
    {
    }

    /// <summary>
    /// Whether a Recv will ever read what <paramref name="pipe"/> has queued. When a pipe's peer has gone, the
    /// socket keeps the pipe until its queued messages are read only if this is true; otherwise it lets the pipe and
    /// its messages go at once. libzmq does the same: PUSH's pipes do not wait for a reader, PAIR ends a second
    /// peer's pipe (docs/libzmq-behaviour.md L18), ROUTER never reads a peer whose routing id is taken
    /// (docs/libzmq-behaviour.md L16), and REQ discards what its other peers send.
    /// </summary>
    public virtual bool Reads(Pipe pipe) => true;

    /// <summary>The connection under a connect pipe was lost; it may come back.</summary>
    public virtual void Disconnected(Pipe pipe)
    {
    }

    /// <summary>Sends one frame (its payload, if any, may travel by reference).</summary>
    public abstract SendStatus Send(in OutboundFrame frame);

    public abstract RecvStatus Recv<TSink>(ref TSink sink)
        where TSink : IFrameSink, allows ref struct;

    /// <summary>POLLIN: a frame can be received without waiting.</summary>
    public abstract bool CanReceive { get; }

    /// <summary>POLLOUT: a send would not block.</summary>
    public abstract bool CanSend { get; }

    /// <summary>SUBSCRIBE option (SUB, or XPUB with Xpub_Manual); EINVAL elsewhere.</summary>
    public virtual int Subscribe(ReadOnlySpan<byte> topic, bool subscribe) => ZmqConstants.EINVAL;

    /// <summary>Join or Leave a group (DISH, RFC 48); ENOTSUP elsewhere, as libzmq's zmq_join and zmq_leave answer.</summary>
    public virtual int Join(ReadOnlySpan<byte> group, bool join) => ZmqConstants.ENOTSUP;
}
