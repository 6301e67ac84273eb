using Managed.Zmq.Patterns;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Pipes;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq;

/// <summary>
/// Receive into a Message's existing buffer when the frame has the expected size (the Net.Zmq 0.4.x pool API, docs/migrating.md);
/// any other size is consumed and reported as a mismatch.
/// </summary>
internal struct ExpectedSizeSink : IFrameSink
{
    private readonly Message _message;
    private readonly int _expectedSize;
    public ExpectedSizeSink(Message message, int expectedSize)
    {
        _message = message;
        _expectedSize = expectedSize;
    }

    public bool SizeMatched { get; private set; }

    public bool More { get; private set; }

    public void Deliver(in InboundFrame frame)
    {
        More = frame.More;
        SizeMatched = frame.Length == _expectedSize;
        if (SizeMatched)
        {
            // A large frame's buffer changes places with the message's own (same bucket), so it stays pooled.
            if (frame.Length < Message.TakeOverThreshold || !_message.TryTakeReceivedBuffer(frame))
            {
                frame.Body.CopyTo(_message.PrepareReceive(frame.Length));
            }

            _message.SetMore(frame.More);
            _message.SetMetadata(frame.Metadata);
        }
    }
}
