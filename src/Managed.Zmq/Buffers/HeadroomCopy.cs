namespace Managed.Zmq.Buffers;

/// <summary>
/// Copies of large frame bodies into pooled native buffers with <see cref="FrameHeadroom"/> in front, which the write
/// loop sends header and body from in one system call and then returns: for span sends, and for zero-copy caller
/// memory below <see cref="Internal.Tuning.Frames.CopyCallerMemoryBelow"/>.
/// </summary>
internal static unsafe class HeadroomCopy
{
    /// <summary>The buffers; private to the library, so applications' pool statistics stay theirs.</summary>
    private static readonly BufferPool s_pool = new();

    /// <summary>
    /// A payload over a pooled copy of <paramref name="data"/> (at most <see cref="MessagePool.MaxBucketSize"/> bytes),
    /// holding one reference, whose release returns the buffer.
    /// </summary>
    public static OutboundPayload Create(ReadOnlySpan<byte> data)
    {
        nint buffer = s_pool.RentBuffer(data.Length, out int bucket);
        data.CopyTo(new Span<byte>((void*)buffer, data.Length));
        var payload = OutboundPayload.Create((byte*)buffer, data.Length, hasHeadroom: true);
        payload.AdoptPooled(s_pool, bucket);
        return payload;
    }
}
