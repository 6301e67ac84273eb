using Managed.Zmq.Patterns;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Pipes;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Sockets;

/// <summary>Copies a frame into a caller's span; truncates and reports the full size (as libzmq and Net.Zmq do).</summary>
internal ref struct SpanSink : IFrameSink
{
    private readonly Span<byte> _destination;

    public SpanSink(Span<byte> destination)
    {
        _destination = destination;
    }

    public int Size { get; private set; }

    public bool More { get; private set; }

    public void Deliver(in InboundFrame frame)
    {
        var body = frame.Body;
        int count = Math.Min(body.Length, _destination.Length);
        body[..count].CopyTo(_destination);
        Size = body.Length;
        More = frame.More;
    }
}
