namespace Managed.Zmq.Transports.Tls;

/// <summary>
/// The connected byte transport seen as a <see cref="Stream"/>, which is what <see cref="System.Net.Security.SslStream"/>
/// reads and writes. Every call goes straight to the transport, so TLS records travel on the connection's
/// I/O thread exactly as plain bytes do, with no extra buffer or copy. The TLS layer owns and disposes the
/// transport; this view never does.
/// </summary>
internal sealed class TransportStream(IByteTransport inner) : Stream
{
    public override bool CanRead => true;

    public override bool CanWrite => true;

    public override bool CanSeek => false;

    public override long Length => throw new NotSupportedException();

    public override long Position
    {
        get => throw new NotSupportedException();
        set => throw new NotSupportedException();
    }

    public override ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
        buffer.IsEmpty ? new ValueTask<int>(0) : inner.ReceiveAsync(buffer);

    public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    public override ValueTask WriteAsync(ReadOnlyMemory<byte> buffer, CancellationToken cancellationToken = default) =>
        buffer.IsEmpty ? default : inner.SendAsync(buffer);

    public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) =>
        WriteAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

    /// <summary>Nothing is buffered here: the transport sends what it is given.</summary>
    public override Task FlushAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public override void Flush()
    {
    }

    // The connection never blocks its I/O thread: SslStream is only used through its async methods.
    public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException("wss: synchronous read");

    public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException("wss: synchronous write");

    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

    public override void SetLength(long value) => throw new NotSupportedException();
}
