using System.Text;
using Managed.Zmq.Patterns;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Pipes;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Sockets;

/// <summary>Decodes a frame as UTF-8 text.</summary>
internal struct StringSink : IFrameSink
{
    public string Text { get; private set; }

    public bool More { get; private set; }

    public void Deliver(in InboundFrame frame)
    {
        Text = Encoding.UTF8.GetString(frame.Body);
        More = frame.More;
    }
}
