using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text;
using Managed.Zmq.Internal;
using Managed.Zmq.Buffers;

namespace Managed.Zmq;

/// <summary>One frame (message part) and its MORE flag.</summary>
/// <remarks>
/// <para>
/// The content is one of three kinds: a native buffer the message owns; caller-owned native memory used without
/// copying, released through a free callback that runs exactly once; or a buffer rented from a
/// <see cref="MessagePool"/>, which goes back to its pool exactly once.
/// </para>
/// <para>
/// Messages are not thread-safe. After <see cref="Dispose"/> every member that needs the content throws
/// <see cref="InvalidOperationException"/> "Message not initialized" (except <see cref="SetActualDataSize(int)"/>,
/// which throws <see cref="ObjectDisposedException"/>). An undisposed message releases its content when it is
/// collected (through a <see cref="MessageGuard"/>, see there why not a finalizer of its own): the free callback
/// runs, and an owned or rented buffer is freed (a rented one is then lost to its pool).
/// </para>
/// </remarks>
public sealed unsafe partial class Message : IDisposable, IGuardedContent
{
    /// <summary>Start of the content; meaningful for <see cref="_size"/> bytes (may be null when empty).</summary>
    private byte* _data;

    /// <summary>Content length in bytes.</summary>
    private int _size;

    /// <summary>MORE flag of the last frame received into this message.</summary>
    private bool _more;

    /// <summary>True once <see cref="Dispose"/> ran; the message is then "not initialized".</summary>
    private bool _disposed;

    /// <summary>Where <see cref="_data"/> points and how to release it.</summary>
    private ContentKind _kind;

    /// <summary>
    /// Native buffer this message owns: the content while <see cref="_kind"/> is Owned; a small one (up to
    /// <see cref="Tuning.Frames.MessageRetainedCapacity"/>) may also be kept for reuse while the content is Lent.
    /// </summary>
    private byte* _owned;

    /// <summary>Capacity of <see cref="_owned"/>, which may exceed <see cref="_size"/> so receives can reuse it.</summary>
    private int _ownedCapacity;

    /// <summary>Callback for External content; swapped to null when it runs so it can only run once.</summary>
    private Action<nint>? _freeCallback;

    /// <summary>
    /// Pooled content: the pool the buffer returns to. Owned content from an oversize rent: the pool whose return
    /// counter its release increments (once). Otherwise null.
    /// </summary>
    private BufferPool? _pool;

    /// <summary>Pooled content: the bucket index of the rented buffer.</summary>
    private int _bucket;

    /// <summary>
    /// The metadata of the connection the last frame was received from (shared, immutable, one per connection);
    /// null for a frame built locally or received over inproc, as libzmq gives those none.
    /// </summary>
    private Wire.PeerMetadata? _metadata;

    /// <summary>Releases the content if this message is collected undisposed (Message has no finalizer of its own).</summary>
    private MessageGuard? _guard;

    /// <summary>Initializes an empty frame (<see cref="Size"/> 0).</summary>
    public Message()
    {
        _guard = MessageGuard.Watch(this);
    }

    /// <summary>Initializes a frame of <paramref name="size"/> bytes with unspecified content.</summary>
    /// <param name="size">The frame size.</param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is negative.</exception>
    public Message(int size)
    {
        if (size < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRangeException(nameof(size), "Size cannot be negative");
        }

        StartOwned(size);
    }

    /// <summary>Initializes a frame holding a copy of <paramref name="data"/>.</summary>
    /// <param name="data">The bytes to copy.</param>
    public Message(ReadOnlySpan<byte> data)
    {
        StartOwned(data.Length);
        data.CopyTo(new Span<byte>(_data, _size));
    }

    /// <summary>Initializes a frame holding the UTF-8 encoding of <paramref name="text"/>.</summary>
    /// <param name="text">The text to encode.</param>
    /// <exception cref="ArgumentNullException"><paramref name="text"/> is null.</exception>
    public Message(string text)
    {
        if (text is null)
        {
            ThrowHelper.ThrowArgumentNullException(nameof(text));
        }

        int size = Encoding.UTF8.GetByteCount(text);
        StartOwned(size);
        _size = Encoding.UTF8.GetBytes(text, new Span<byte>(_data, size));
    }

    /// <summary>
    /// The constructors' common start: a guard, and an owned buffer of <paramref name="size"/> bytes as the content,
    /// with one thread-static read for both (see ThreadCaches).
    /// </summary>
    private void StartOwned(int size)
    {
        ThreadCaches caches = ThreadCaches.Current;
        _guard = MessageGuard.Watch(this, caches);
        EnsureOwnedCapacity(size, caches);
        _size = size;
    }

    /// <summary>Initializes a zero-copy frame over caller-owned native memory.</summary>
    /// <param name="data">Start of the memory.</param>
    /// <param name="size">Length of the memory in bytes.</param>
    /// <param name="freeCallback">
    /// Called with <paramref name="data"/> exactly once when the library no longer needs the memory, possibly on an
    /// I/O thread; exceptions it throws are swallowed. With null, the library never releases the memory.
    /// </param>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="size"/> is negative.</exception>
    /// <exception cref="ArgumentException"><paramref name="data"/> is 0 while <paramref name="size"/> is positive.</exception>
    public Message(nint data, int size, Action<nint>? freeCallback = null)
    {
        if (size < 0)
        {
            ThrowHelper.ThrowArgumentOutOfRangeException(nameof(size), "Size cannot be negative");
        }

        if (data == 0 && size > 0)
        {
            ThrowHelper.ThrowArgumentException("Data pointer cannot be zero when size is positive", nameof(data));
        }

        _kind = ContentKind.External;
        _data = (byte*)data;
        _size = size;
        _freeCallback = freeCallback;
        _guard = MessageGuard.Watch(this);
    }

    /// <summary>Initializes a pooled frame over a buffer rented from <paramref name="pool"/>.</summary>
    internal Message(BufferPool pool, int bucket, nint buffer, int size, ThreadCaches caches)
    {
        Debug.Assert(size <= MessagePool.GetBucketCapacity(bucket), "the bucket must hold the frame");
        _kind = ContentKind.Pooled;
        _pool = pool;
        _bucket = bucket;
        _data = (byte*)buffer;
        _size = size;
        _guard = MessageGuard.Watch(this, caches);
    }

    /// <summary>Gets a writable span over the content, valid until the next Recv, Send, Rebuild, Move, Copy or
    /// Dispose on this message. For a pooled message its length is <see cref="Size"/>, not <see cref="BufferSize"/>.</summary>
    /// <exception cref="InvalidOperationException">The message is disposed.</exception>
    public Span<byte> Data
    {
        get
        {
            EnsureInitialized();
            return new Span<byte>(_data, _size);
        }
    }

    /// <summary>Gets the content length in bytes.</summary>
    /// <exception cref="InvalidOperationException">The message is disposed.</exception>
    public int Size
    {
        get
        {
            EnsureInitialized();
            return _size;
        }
    }

    /// <summary>Gets the MORE flag of the last frame received into this message; false for locally built messages.</summary>
    /// <exception cref="InvalidOperationException">The message is disposed.</exception>
    public bool More
    {
        get
        {
            EnsureInitialized();
            return _more;
        }
    }

    /// <summary>
    /// Gets or sets the routing id (libzmq's zmq_msg_routing_id and zmq_msg_set_routing_id, RFC 41): a message
    /// received from a <see cref="SocketType.Server"/> or <see cref="SocketType.Peer"/> socket holds the id the socket
    /// gave the peer it came from, and a message sent from one goes to the peer its routing id names. 0, the value of a new message and of
    /// a message after it was sent, means none; any other received message has 0 too.
    /// </summary>
    /// <exception cref="InvalidOperationException">The message is disposed.</exception>
    /// <exception cref="ZmqException">EINVAL when set to 0, as libzmq refuses it.</exception>
    public uint RoutingId
    {
        get
        {
            EnsureInitialized();
            return PeekRoutingId;
        }

        set
        {
            EnsureInitialized();
            if (value == 0)
            {
                ThrowHelper.ThrowZmqException(ZmqConstants.EINVAL);
            }

            SetRoutingId(value);
        }
    }

    /// <summary>Gets the content length in bytes; always equal to <see cref="Size"/>.</summary>
    /// <exception cref="InvalidOperationException">The message is disposed.</exception>
    public int ActualDataSize => Size;

    /// <summary>Gets the capacity of the pooled buffer for a pooled message, otherwise <see cref="Size"/>.</summary>
    /// <exception cref="InvalidOperationException">The message is disposed.</exception>
    public int BufferSize
    {
        get
        {
            EnsureInitialized();
            return _kind == ContentKind.Pooled ? MessagePool.GetBucketCapacity(_bucket) : _size;
        }
    }

    /// <summary>Gets whether the message can still be used (false after <see cref="Dispose"/>).</summary>
    internal bool IsInitialized => !_disposed;

    /// <summary>Gets the content bytes without any check; the caller has validated the message.</summary>
    /// <remarks>
    /// The span points at native memory the finalizer releases, so the caller must keep the message reachable until
    /// it is done with the span (calling <see cref="ReleaseAfterSend"/> afterwards does that; otherwise use
    /// <see cref="GC.KeepAlive(object?)"/>).
    /// </remarks>
    internal ReadOnlySpan<byte> Content => new(_data, _size);

    /// <summary>Reads a message property.</summary>
    /// <param name="property">The property.</param>
    /// <returns>For <see cref="MessageProperty.More"/>, 1 or 0. For <see cref="MessageProperty.Shared"/>, 0: the
    /// content is never shared with another live message.</returns>
    /// <exception cref="InvalidOperationException">The message is disposed.</exception>
    /// <exception cref="ZmqException">EINVAL for any other property.</exception>
    public int GetProperty(MessageProperty property)
    {
        EnsureInitialized();
        switch (property)
        {
            case MessageProperty.More:
                return _more ? 1 : 0;
            case MessageProperty.Shared:
                return 0;
            default:
                ThrowHelper.ThrowZmqException(ZmqConstants.EINVAL);
                return 0;
        }
    }

    /// <summary>Sets a message property; no property can be set, as in libzmq.</summary>
    /// <param name="property">The property.</param>
    /// <param name="value">The value.</param>
    /// <exception cref="InvalidOperationException">The message is disposed.</exception>
    /// <exception cref="ZmqException">Always EINVAL.</exception>
    public void SetProperty(MessageProperty property, int value)
    {
        EnsureInitialized();
        ThrowHelper.ThrowZmqException(ZmqConstants.EINVAL);
    }

    /// <summary>
    /// Reads a property of the connection this frame was received over, as libzmq's <c>zmq_msg_gets</c> does.
    /// </summary>
    /// <remarks>
    /// <para>Over tcp and ipc every received frame carries: <c>Socket-Type</c>; <c>Identity</c> (also answered to
    /// <c>Routing-Id</c>) when the peer announced one; <c>Peer-Address</c> (the remote IP for tcp, without port;
    /// for ipc <c>localhost:uid:gid:pid</c> of the peer process, as libzmq forms it from SO_PEERCRED);
    /// <c>User-Id</c> and the metadata a ZAP handler returned, when one was consulted; and every other property
    /// the peer sent in its READY or INITIATE command (for example a libzmq peer's <c>X-</c> properties set with
    /// ZMQ_METADATA). As in libzmq, the peer address comes first, then what ZAP said, then
    /// what the peer said: a peer cannot override its own <c>User-Id</c> or address.</para>
    /// <para>Frames received over inproc, and messages built locally, have no metadata (null for every name),
    /// as in libzmq. Names are compared case-insensitively (RFC 23), where libzmq compares them exactly.</para>
    /// </remarks>
    /// <param name="property">The metadata name.</param>
    /// <returns>The value, or null when the frame has no such property.</returns>
    /// <exception cref="InvalidOperationException">The message is disposed.</exception>
    /// <exception cref="ArgumentNullException"><paramref name="property"/> is null.</exception>
    public string? GetMetadata(string property)
    {
        EnsureInitialized();
        if (property is null)
        {
            ThrowHelper.ThrowArgumentNullException(nameof(property));
        }

        return _metadata?.Get(property);
    }

    /// <summary>Copies the content into a new array.</summary>
    /// <returns>A fresh array on every call.</returns>
    /// <exception cref="InvalidOperationException">The message is disposed.</exception>
    public byte[] ToArray() => Data.ToArray();

    /// <summary>Decodes the content as UTF-8.</summary>
    /// <returns>The text; empty for an empty frame.</returns>
    /// <exception cref="InvalidOperationException">The message is disposed.</exception>
    public override string ToString() => Encoding.UTF8.GetString(Data);

    /// <summary>Releases the content: runs the free callback if it has not run, returns a rented buffer to its pool,
    /// or frees the owned buffer. Idempotent; the message is then unusable.</summary>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        // Marked first so a throwing pool or callback path can never release twice.
        _disposed = true;
        ThreadCaches caches = ThreadCaches.Current;
        ReleaseContent(caches: caches);
        FreeOwned(caches);
        _guard?.Release(caches);
        _guard = null;
    }

    /// <summary>Throws the IOE of a disposed message; kept small so property getters inline.</summary>
    private void EnsureInitialized()
    {
        if (_disposed)
        {
            ThrowHelper.ThrowMessageNotInitialized();
        }
    }
}
