using System.Buffers;
using System.IO.Pipelines;
using Managed.Zmq.Transports;

namespace Managed.Zmq.Tests.Support;

/// <summary>
/// <see cref="IByteTransport"/> over two <see cref="System.IO.Pipelines.Pipe"/> halves, so the ZMTP
/// engine runs against a scripted peer with no OS socket (Kestrel's InMemory transport idea).
/// </summary>
internal sealed class InMemoryByteTransport : IByteTransport
{
    private readonly PipeReader _input;
    private readonly PipeWriter _output;
    private int _disposed;

    public InMemoryByteTransport(PipeReader input, PipeWriter output)
    {
        _input = input;
        _output = output;
    }

    public string PeerAddress => string.Empty;

    public int Handle => -1;

    /// <summary>True once the engine has disposed its end (the connection was closed).</summary>
    public bool IsDisposed => Volatile.Read(ref _disposed) != 0;

    public async ValueTask<int> ReceiveAsync(Memory<byte> buffer)
    {
        ObjectDisposedException.ThrowIf(IsDisposed, this);
        var result = await _input.ReadAsync().ConfigureAwait(false);
        var received = result.Buffer;
        if (received.IsEmpty && result.IsCompleted)
        {
            _input.AdvanceTo(received.End);
            return 0;
        }

        int count = (int)Math.Min(received.Length, buffer.Length);
        received.Slice(0, count).CopyTo(buffer.Span);
        _input.AdvanceTo(received.GetPosition(count));
        return count;
    }

    public async ValueTask SendAsync(ReadOnlyMemory<byte> data)
    {
        ObjectDisposedException.ThrowIf(IsDisposed, this);
        await _output.WriteAsync(data).ConfigureAwait(false);
    }

    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) == 0)
        {
            _output.Complete();
            _input.Complete();
        }
    }
}
