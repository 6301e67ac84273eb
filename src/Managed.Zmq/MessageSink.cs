using Managed.Zmq.Patterns;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Pipes;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq;

/// <summary>Receives a frame into a <see cref="Message"/>, reusing its buffer where it fits.</summary>
internal readonly struct MessageSink : IFrameSink
{
    private readonly Message _message;

    public MessageSink(Message message)
    {
        _message = message;
    }

    public void Deliver(in InboundFrame frame)
    {
        // A large frame's buffer changes hands rather than being copied.
        if (frame.Length < Message.TakeOverThreshold || !_message.TryTakeReceivedBuffer(frame))
        {
            frame.Body.CopyTo(_message.PrepareReceive(frame.Length));
        }

        _message.SetMore(frame.More);
        _message.SetRoutingId(frame.RoutingId);
        _message.SetGroup(frame.Group);
        _message.SetMetadata(frame.Metadata);
    }
}
