using Managed.Zmq.Patterns;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Pipes;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Sockets;

/// <summary>
/// Receive into a Message's existing buffer when the frame has the expected size (0.4.x pool API);
/// any other size is consumed and reported as a mismatch.
/// </summary>
internal struct ExpectedSizeSink : IFrameSink
{
    private readonly Message _message;
    private readonly int _expectedSize;
    private readonly SocketCore _socket;

    public ExpectedSizeSink(Message message, int expectedSize, SocketCore socket)
    {
        _message = message;
        _expectedSize = expectedSize;
        _socket = socket;
    }

    public bool SizeMatched { get; private set; }

    public bool More { get; private set; }

    public void Deliver(ReadOnlySpan<byte> frame, bool more)
    {
        More = more;
        SizeMatched = frame.Length == _expectedSize;
        if (SizeMatched)
        {
            // A large frame's buffer changes places with the message's own (same bucket), so it stays pooled.
            if (frame.Length < Message.TakeOverThreshold || !_message.TryTakeReceivedBuffer(_socket, frame))
            {
                frame.CopyTo(_message.PrepareReceive(frame.Length));
            }

            _message.SetMore(more);
            _message.SetMetadata(_socket.PeekedMetadata);
        }
    }
}
