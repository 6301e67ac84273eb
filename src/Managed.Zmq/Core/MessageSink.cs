using Managed.Zmq.Patterns;

namespace Managed.Zmq.Core;

/// <summary>Receives a frame into a <see cref="Message"/>, reusing its buffer where it fits.</summary>
internal readonly struct MessageSink : IFrameSink
{
    private readonly Message _message;
    private readonly SocketCore _socket;

    public MessageSink(Message message, SocketCore socket)
    {
        _message = message;
        _socket = socket;
    }

    public void Deliver(ReadOnlySpan<byte> frame, bool more)
    {
        // A large frame's buffer changes hands rather than being copied.
        if (frame.Length < Message.TakeOverThreshold || !_message.TryTakeReceivedBuffer(_socket, frame))
        {
            frame.CopyTo(_message.PrepareReceive(frame.Length));
        }

        _message.SetMore(more);
        _message.SetMetadata(_socket.PeekedMetadata);
    }
}
