using System.Buffers;
using System.Text;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;
using Managed.Zmq.Sockets;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Async;

/// <summary>SendAsync of text: one UTF-8 frame, encoded on each try so that a pending send holds no buffer.</summary>
internal readonly struct SendTextAttempt : IAsyncAttempt<int>
{
    /// <summary>The text to send.</summary>
    private readonly string _text;

    public SendTextAttempt(string text)
    {
        _text = text;
    }

    public bool IsSend => true;

    public bool TryExecute(SocketCore core, out int result)
    {
        int maxBytes = Encoding.UTF8.GetMaxByteCount(_text.Length);
        if (maxBytes <= Tuning.Frames.TextStackLimit)
        {
            Span<byte> buffer = stackalloc byte[Tuning.Frames.TextStackLimit];
            result = Encoding.UTF8.GetBytes(_text, buffer);
            return AsyncSocketCalls.TrySend(core, buffer[..result], more: false);
        }

        byte[] rented = ArrayPool<byte>.Shared.Rent(maxBytes);
        try
        {
            result = Encoding.UTF8.GetBytes(_text, rented);
            return AsyncSocketCalls.TrySend(core, rented.AsSpan(0, result), more: false);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }

    public void Abandon()
    {
    }
}
