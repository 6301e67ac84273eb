using System.Buffers;
using System.IO.Pipelines;

namespace Managed.Zmq.Tests.Support;

/// <summary>The test's end of an <see cref="InMemoryDuplex"/>: writes raw bytes and reads exact counts, always with a timeout.</summary>
internal sealed class ScriptedPeer : IDisposable
{
    private static readonly TimeSpan DefaultTimeout = TimeSpan.FromSeconds(30);

    private readonly PipeReader _input;
    private readonly PipeWriter _output;
    private bool _closed;

    public ScriptedPeer(PipeReader input, PipeWriter output)
    {
        _input = input;
        _output = output;
    }

    public async Task SendAsync(byte[] bytes)
    {
        await _output.WriteAsync(bytes).AsTask().WaitAsync(DefaultTimeout);
    }

    /// <summary>Reads exactly <paramref name="count"/> bytes the engine sent; fails if they do not come in time.</summary>
    public async Task<byte[]> ReadExactlyAsync(int count)
    {
        using var timeout = new CancellationTokenSource(DefaultTimeout);
        while (true)
        {
            var result = await _input.ReadAsync(timeout.Token);
            var buffer = result.Buffer;
            if (buffer.Length >= count)
            {
                byte[] bytes = buffer.Slice(0, count).ToArray();
                _input.AdvanceTo(buffer.GetPosition(count));
                return bytes;
            }

            if (result.IsCompleted)
            {
                throw new EndOfStreamException($"Engine closed after {buffer.Length} of {count} expected bytes.");
            }

            _input.AdvanceTo(buffer.Start, buffer.End);
        }
    }

    /// <summary>Everything the engine sent until it closed its side; fails if it does not close in time.</summary>
    public async Task<byte[]> ReadToEndAsync()
    {
        using var timeout = new CancellationTokenSource(DefaultTimeout);
        while (true)
        {
            var result = await _input.ReadAsync(timeout.Token);
            if (result.IsCompleted)
            {
                byte[] bytes = result.Buffer.ToArray();
                _input.AdvanceTo(result.Buffer.End);
                return bytes;
            }

            _input.AdvanceTo(result.Buffer.Start, result.Buffer.End);
        }
    }

    /// <summary>Closes the peer's sending direction: the engine's next receive returns 0.</summary>
    public void Close()
    {
        if (!_closed)
        {
            _closed = true;
            _output.Complete();
        }
    }

    public void Dispose()
    {
        Close();
        _input.Complete();
    }
}
