using Managed.Zmq.Patterns;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Pipes;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Sockets;

/// <summary>Copies a frame into a new array (RecvBytes, the async receive).</summary>
internal struct ArraySink : IFrameSink
{
    public byte[] Data { get; private set; }

    public bool More { get; private set; }

    public void Deliver(in InboundFrame frame)
    {
        Data = frame.Body.ToArray();
        More = frame.More;
    }
}
