using Managed.Zmq.Patterns;

namespace Managed.Zmq.Core;

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
