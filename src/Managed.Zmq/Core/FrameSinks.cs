using System.Text;
using Managed.Zmq.Patterns;

namespace Managed.Zmq.Core;

/// <summary>Copies a frame into a caller's span; truncates and reports the full size (libzmq, API §4.3).</summary>
internal ref struct SpanSink : IFrameSink
{
    private readonly Span<byte> _destination;

    public SpanSink(Span<byte> destination)
    {
        _destination = destination;
    }

    public int Size { get; private set; }

    public bool More { get; private set; }

    public void Deliver(ReadOnlySpan<byte> frame, bool more)
    {
        int count = Math.Min(frame.Length, _destination.Length);
        frame[..count].CopyTo(_destination);
        Size = frame.Length;
        More = more;
    }
}

/// <summary>Copies a frame into a new array (RecvBytes, the async receive).</summary>
internal struct ArraySink : IFrameSink
{
    public byte[] Data { get; private set; }

    public bool More { get; private set; }

    public void Deliver(ReadOnlySpan<byte> frame, bool more)
    {
        Data = frame.ToArray();
        More = more;
    }
}

/// <summary>Decodes a frame as UTF-8 text.</summary>
internal struct StringSink : IFrameSink
{
    public string Text { get; private set; }

    public bool More { get; private set; }

    public void Deliver(ReadOnlySpan<byte> frame, bool more)
    {
        Text = Encoding.UTF8.GetString(frame);
        More = more;
    }
}

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
