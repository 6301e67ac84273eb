using System.Collections;
using System.Text;
using Managed.Zmq.Internal;

namespace Managed.Zmq;

/// <summary>An ordered list of frames that owns its frames: disposing it disposes every frame it still holds.</summary>
/// <remarks>
/// Not thread-safe. After <see cref="Dispose"/>, <see cref="Count"/> is 0, <see cref="IsEmpty"/> is true and every other
/// member throws <see cref="ObjectDisposedException"/>.
/// </remarks>
public sealed class MultipartMessage : IEnumerable<Message>, IDisposable
{
    /// <summary>The frames, in order.</summary>
    private readonly List<Message> _frames = [];

    /// <summary>True once <see cref="Dispose"/> ran.</summary>
    private bool _disposed;

    /// <summary>Initializes an empty container.</summary>
    public MultipartMessage()
    {
    }

    /// <summary>Gets the number of frames; 0 once disposed.</summary>
    public int Count => _frames.Count;

    /// <summary>Gets a value indicating whether there are no frames.</summary>
    public bool IsEmpty => _frames.Count == 0;

    /// <summary>Gets the first frame, still owned by the container.</summary>
    /// <exception cref="ObjectDisposedException">The container is disposed.</exception>
    /// <exception cref="InvalidOperationException">The container is empty.</exception>
    public Message First
    {
        get
        {
            EnsureNotEmpty();
            return _frames[0];
        }
    }

    /// <summary>Gets the last frame, still owned by the container.</summary>
    /// <exception cref="ObjectDisposedException">The container is disposed.</exception>
    /// <exception cref="InvalidOperationException">The container is empty.</exception>
    public Message Last
    {
        get
        {
            EnsureNotEmpty();
            return _frames[^1];
        }
    }

    /// <summary>Gets the frame at <paramref name="index"/>, still owned by the container.</summary>
    /// <param name="index">The zero-based position.</param>
    /// <exception cref="ObjectDisposedException">The container is disposed.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is outside the list.</exception>
    public Message this[int index]
    {
        get
        {
            EnsureNotDisposed();
            return _frames[index];
        }
    }

    /// <summary>Appends <paramref name="message"/> and takes ownership of it.</summary>
    /// <param name="message">The frame.</param>
    /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">The container is disposed.</exception>
    public void Add(Message message)
    {
        if (message is null)
        {
            ThrowHelper.ThrowArgumentNullException(nameof(message));
        }

        EnsureNotDisposed();
        _frames.Add(message);
    }

    /// <summary>Appends a new frame holding a copy of <paramref name="data"/>.</summary>
    /// <param name="data">The bytes.</param>
    /// <exception cref="ArgumentNullException"><paramref name="data"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">The container is disposed.</exception>
    public void Add(byte[] data)
    {
        if (data is null)
        {
            ThrowHelper.ThrowArgumentNullException(nameof(data));
        }

        EnsureNotDisposed();
        _frames.Add(new Message(data));
    }

    /// <summary>Appends a new frame holding the UTF-8 encoding of <paramref name="text"/>.</summary>
    /// <param name="text">The text.</param>
    /// <exception cref="ArgumentNullException"><paramref name="text"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">The container is disposed.</exception>
    public void Add(string text)
    {
        if (text is null)
        {
            ThrowHelper.ThrowArgumentNullException(nameof(text));
        }

        EnsureNotDisposed();
        _frames.Add(new Message(text));
    }

    /// <summary>Appends a new frame holding a copy of <paramref name="data"/>.</summary>
    /// <param name="data">The bytes.</param>
    /// <exception cref="ObjectDisposedException">The container is disposed.</exception>
    public void Add(ReadOnlySpan<byte> data)
    {
        EnsureNotDisposed();
        _frames.Add(new Message(data));
    }

    /// <summary>Appends a zero-length frame, such as a REQ/ROUTER delimiter.</summary>
    /// <exception cref="ObjectDisposedException">The container is disposed.</exception>
    public void AddEmptyFrame()
    {
        EnsureNotDisposed();
        _frames.Add(new Message());
    }

    /// <summary>Inserts <paramref name="message"/> at <paramref name="index"/> and takes ownership of it.</summary>
    /// <param name="index">The zero-based position, from 0 to <see cref="Count"/>.</param>
    /// <param name="message">The frame.</param>
    /// <exception cref="ArgumentNullException"><paramref name="message"/> is null.</exception>
    /// <exception cref="ObjectDisposedException">The container is disposed.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is outside 0 to <see cref="Count"/>.</exception>
    public void Insert(int index, Message message)
    {
        if (message is null)
        {
            ThrowHelper.ThrowArgumentNullException(nameof(message));
        }

        EnsureNotDisposed();
        _frames.Insert(index, message);
    }

    /// <summary>Removes the frame at <paramref name="index"/> and disposes it.</summary>
    /// <param name="index">The zero-based position.</param>
    /// <exception cref="ObjectDisposedException">The container is disposed.</exception>
    /// <exception cref="ArgumentOutOfRangeException"><paramref name="index"/> is outside the list.</exception>
    public void RemoveAt(int index)
    {
        EnsureNotDisposed();
        Message message = _frames[index];
        _frames.RemoveAt(index);
        message.Dispose();
    }

    /// <summary>Disposes and removes every frame.</summary>
    /// <exception cref="ObjectDisposedException">The container is disposed.</exception>
    public void Clear()
    {
        EnsureNotDisposed();
        DisposeFrames();
    }

    /// <summary>Removes the first frame and hands its ownership to the caller.</summary>
    /// <returns>The frame, not disposed.</returns>
    /// <exception cref="ObjectDisposedException">The container is disposed.</exception>
    /// <exception cref="InvalidOperationException">The container is empty.</exception>
    public Message Pop()
    {
        EnsureNotEmpty();
        Message message = _frames[0];
        _frames.RemoveAt(0);
        return message;
    }

    /// <summary>Removes the last frame and hands its ownership to the caller.</summary>
    /// <returns>The frame, not disposed.</returns>
    /// <exception cref="ObjectDisposedException">The container is disposed.</exception>
    /// <exception cref="InvalidOperationException">The container is empty.</exception>
    public Message PopBack()
    {
        EnsureNotEmpty();
        Message message = _frames[^1];
        _frames.RemoveAt(_frames.Count - 1);
        return message;
    }

    /// <summary>Gets a read-only view of the first frame's data.</summary>
    /// <returns>The span, valid while the frame is unchanged.</returns>
    /// <exception cref="ObjectDisposedException">The container is disposed.</exception>
    /// <exception cref="InvalidOperationException">The container is empty.</exception>
    public ReadOnlySpan<byte> PeekFirst() => First.Data;

    /// <summary>Gets a read-only view of the last frame's data.</summary>
    /// <returns>The span, valid while the frame is unchanged.</returns>
    /// <exception cref="ObjectDisposedException">The container is disposed.</exception>
    /// <exception cref="InvalidOperationException">The container is empty.</exception>
    public ReadOnlySpan<byte> PeekLast() => Last.Data;

    /// <summary>Decodes the first frame as UTF-8.</summary>
    /// <returns>The text.</returns>
    /// <exception cref="ObjectDisposedException">The container is disposed.</exception>
    /// <exception cref="InvalidOperationException">The container is empty.</exception>
    public string PeekFirstString() => Encoding.UTF8.GetString(PeekFirst());

    /// <summary>Decodes the last frame as UTF-8.</summary>
    /// <returns>The text.</returns>
    /// <exception cref="ObjectDisposedException">The container is disposed.</exception>
    /// <exception cref="InvalidOperationException">The container is empty.</exception>
    public string PeekLastString() => Encoding.UTF8.GetString(PeekLast());

    /// <summary>Enumerates the frames in order.</summary>
    /// <returns>The enumerator.</returns>
    /// <exception cref="ObjectDisposedException">The container is disposed.</exception>
    public IEnumerator<Message> GetEnumerator()
    {
        EnsureNotDisposed();
        return _frames.GetEnumerator();
    }

    /// <inheritdoc/>
    IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

    /// <summary>Disposes every frame still held. Idempotent.</summary>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        DisposeFrames();
    }

    private void DisposeFrames()
    {
        foreach (Message message in _frames)
        {
            message.Dispose();
        }

        _frames.Clear();
    }

    private void EnsureNotDisposed()
    {
        if (_disposed)
        {
            ThrowHelper.ThrowObjectDisposedException(nameof(MultipartMessage));
        }
    }

    private void EnsureNotEmpty()
    {
        EnsureNotDisposed();
        if (_frames.Count == 0)
        {
            ThrowHelper.ThrowMultipartMessageEmpty();
        }
    }
}
