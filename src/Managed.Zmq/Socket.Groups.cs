using System.Text;
using Managed.Zmq.Internal;

namespace Managed.Zmq;

public sealed partial class Socket
{
    /// <summary>
    /// Joins a group (DISH; libzmq's zmq_join, RFC 48): messages a RADIO sends to exactly this group are received
    /// from now on. Every connected RADIO hears a JOIN command, and so does every one that connects later.
    /// </summary>
    /// <param name="group">The group, compared byte for byte in UTF-8 (no prefix matching); may be empty.</param>
    /// <exception cref="ArgumentNullException"><paramref name="group"/> is null.</exception>
    /// <exception cref="ZmqException">
    /// ENOTSUP when the socket is not a <see cref="SocketType.Dish"/>; EINVAL when the group is longer than 255 bytes
    /// in UTF-8 (libzmq 4.3's ZMQ_GROUP_MAX_LENGTH), holds a NUL character, or is already joined.
    /// </exception>
    public void Join(string group) => ChangeGroup(group, join: true);

    /// <summary>
    /// Leaves a group joined with <see cref="Join"/> (DISH; libzmq's zmq_leave, RFC 48): every connected RADIO hears
    /// a LEAVE command, and messages of the group still queued here are dropped when they are received.
    /// </summary>
    /// <param name="group">The group.</param>
    /// <exception cref="ArgumentNullException"><paramref name="group"/> is null.</exception>
    /// <exception cref="ZmqException">
    /// ENOTSUP when the socket is not a <see cref="SocketType.Dish"/>; EINVAL when the group is longer than 255 bytes
    /// in UTF-8, holds a NUL character, or was not joined.
    /// </exception>
    public void Leave(string group) => ChangeGroup(group, join: false);

    private void ChangeGroup(string group, bool join)
    {
        ThrowIfDisposed();
        ArgumentNullException.ThrowIfNull(group);
        Span<byte> bytes = stackalloc byte[Tuning.RadioDish.MaxGroupLength];
        int error;
        if (_core.SocketType != SocketType.Dish)
        {
            // libzmq answers zmq_join and zmq_leave on any other type with ENOTSUP before looking at the group.
            error = ZmqConstants.ENOTSUP;
        }
        else if (group.Contains('\0', StringComparison.Ordinal) || group.Length > bytes.Length
            || !Encoding.UTF8.TryGetBytes(group, bytes, out int length))
        {
            error = ZmqConstants.EINVAL;
        }
        else
        {
            using var gate = _core.EnterGate();
            _core.ProcessEvents();
            error = _core.Pattern.Join(bytes[..length], join);
        }

        if (error != 0)
        {
            ThrowHelper.ThrowZmqException(error);
        }
    }
}
