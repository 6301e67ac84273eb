using System.Text;
using Managed.Zmq.Patterns;

namespace Managed.Zmq.Core;

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
