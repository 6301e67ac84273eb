using Managed.Zmq.Patterns;

namespace Managed.Zmq.Core;

/// <summary>
/// Receive into a Message's existing buffer when the frame has the expected size (0.4.x pool API);
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

    public void Deliver(ReadOnlySpan<byte> frame, bool more)
    {
        More = more;
        SizeMatched = frame.Length == _expectedSize;
        if (SizeMatched)
        {
            frame.CopyTo(_message.PrepareReceive(frame.Length));
            _message.SetMore(more);
        }
    }
}
