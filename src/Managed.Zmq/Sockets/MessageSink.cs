using Managed.Zmq.Patterns;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Pipes;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Sockets;

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
