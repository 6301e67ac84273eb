using System.Diagnostics.CodeAnalysis;
using Managed.Zmq.Internal;

namespace Managed.Zmq;

/// <summary>Multipart helpers: every frame but the last carries SendMore; receives collect frames while HasMore.</summary>
public static class SocketExtensions
{
    /// <summary>Sends every frame of <paramref name="message"/>, consuming them (they are left empty).</summary>
    /// <param name="socket">The socket.</param>
    /// <param name="message">The frames.</param>
    public static void SendMultipart(this Socket socket, MultipartMessage message)
    {
        ArgumentNullException.ThrowIfNull(socket);
        ArgumentNullException.ThrowIfNull(message);
        if (message.IsEmpty)
        {
            ThrowHelper.ThrowInvalidOperationException("Cannot send empty multipart message");
        }

        int count = message.Count;
        for (int i = 0; i < count; i++)
        {
            socket.Send(message[i], i < count - 1 ? SendFlags.SendMore : SendFlags.None);
        }
    }

    /// <summary>Sends copies of the arrays as one multipart message.</summary>
    /// <param name="socket">The socket.</param>
    /// <param name="frames">The frames.</param>
    public static void SendMultipart(this Socket socket, IEnumerable<byte[]> frames)
    {
        ArgumentNullException.ThrowIfNull(socket);
        ArgumentNullException.ThrowIfNull(frames);
        var list = frames as IReadOnlyList<byte[]> ?? [.. frames];
        if (list.Count == 0)
        {
            ThrowHelper.ThrowArgumentException("Frame collection cannot be empty", nameof(frames));
        }

        foreach (var frame in list)
        {
            if (frame is null)
            {
                ThrowHelper.ThrowArgumentException("Frame collection cannot contain null values", nameof(frames));
            }
        }

        for (int i = 0; i < list.Count; i++)
        {
            socket.Send(list[i], i < list.Count - 1 ? SendFlags.SendMore : SendFlags.None);
        }
    }

    /// <summary>Sends UTF-8 frames as one multipart message.</summary>
    /// <param name="socket">The socket.</param>
    /// <param name="frames">The frames.</param>
    public static void SendMultipart(this Socket socket, params string[] frames)
    {
        ArgumentNullException.ThrowIfNull(socket);
        ArgumentNullException.ThrowIfNull(frames);
        if (frames.Length == 0)
        {
            ThrowHelper.ThrowArgumentException("Frame array cannot be empty", nameof(frames));
        }

        foreach (var frame in frames)
        {
            if (frame is null)
            {
                ThrowHelper.ThrowArgumentException("Frame array cannot contain null values", nameof(frames));
            }
        }

        for (int i = 0; i < frames.Length; i++)
        {
            socket.Send(frames[i], i < frames.Length - 1 ? SendFlags.SendMore : SendFlags.None);
        }
    }

    /// <summary>Sends the messages as one multipart message, consuming them.</summary>
    /// <param name="socket">The socket.</param>
    /// <param name="messages">The frames.</param>
    public static void SendMultipart(this Socket socket, IEnumerable<Message> messages)
    {
        ArgumentNullException.ThrowIfNull(socket);
        ArgumentNullException.ThrowIfNull(messages);
        var list = messages as IReadOnlyList<Message> ?? [.. messages];
        if (list.Count == 0)
        {
            ThrowHelper.ThrowArgumentException("Message collection cannot be empty", nameof(messages));
        }

        foreach (var message in list)
        {
            if (message is null)
            {
                ThrowHelper.ThrowArgumentException("Message collection cannot contain null values", nameof(messages));
            }
        }

        for (int i = 0; i < list.Count; i++)
        {
            socket.Send(list[i], i < list.Count - 1 ? SendFlags.SendMore : SendFlags.None);
        }
    }

    /// <summary>Receives a whole message, waiting for its first frame; the caller disposes the result.</summary>
    /// <param name="socket">The socket.</param>
    /// <returns>The frames.</returns>
    public static MultipartMessage RecvMultipart(this Socket socket)
    {
        ArgumentNullException.ThrowIfNull(socket);
        var result = new MultipartMessage();
        try
        {
            do
            {
                var frame = new Message();
                result.Add(frame);
                socket.Recv(frame);
            }
            while (socket.HasMore);

            return result;
        }
        catch
        {
            result.Dispose();
            throw;
        }
    }

    /// <summary>Receives a whole message if one is queued, without waiting.</summary>
    /// <param name="socket">The socket.</param>
    /// <param name="message">The frames, or null when nothing was queued.</param>
    /// <returns>true when a message was received.</returns>
    public static bool TryRecvMultipart(this Socket socket, [NotNullWhen(true)] out MultipartMessage? message)
    {
        ArgumentNullException.ThrowIfNull(socket);
        var first = new Message();
        if (!socket.TryRecv(first, out _))
        {
            first.Dispose();
            message = null;
            return false;
        }

        var result = new MultipartMessage();
        result.Add(first);
        try
        {
            // Delivery is atomic: the remaining frames are already here.
            while (socket.HasMore)
            {
                var frame = new Message();
                result.Add(frame);
                socket.Recv(frame);
            }
        }
        catch
        {
            result.Dispose();
            throw;
        }

        message = result;
        return true;
    }
}
