using Managed.Zmq.Core;

namespace Managed.Zmq.Patterns;

/// <summary>
/// STREAM: raw TCP peers without ZMTP. The socket can be created and configured; raw-stream
/// transport is not implemented yet, so sends and receives report ENOTSUP rather than pretend.
/// </summary>
internal sealed class RawStream : Pattern
{
    public RawStream(SocketCore socket)
        : base(socket)
    {
    }

    public override void Attach(Pipe pipe)
    {
    }

    public override void Detach(Pipe pipe)
    {
    }

    public override SendStatus Send(ReadOnlySpan<byte> frame, bool more) => SendStatus.NotSupported;

    public override RecvStatus Recv<TSink>(ref TSink sink) => RecvStatus.NotSupported;

    public override bool CanReceive => false;

    public override bool CanSend => false;
}
