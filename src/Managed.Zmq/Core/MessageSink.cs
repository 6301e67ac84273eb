using Managed.Zmq.Patterns;

namespace Managed.Zmq.Core;

/// <summary>Receives a frame into a <see cref="Message"/>, reusing its buffer where it fits.</summary>
internal readonly struct MessageSink : IFrameSink
{
    private readonly Message _message;

    public MessageSink(Message message)
    {
        _message = message;
    }

    public void Deliver(ReadOnlySpan<byte> frame, bool more)
    {
        frame.CopyTo(_message.PrepareReceive(frame.Length));
        _message.SetMore(more);
    }
}
