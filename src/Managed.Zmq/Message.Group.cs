using System.Text;
using Managed.Zmq.Internal;

namespace Managed.Zmq;

/// <summary>The group a RADIO message goes to and a DISH message came from (RFC 48).</summary>
public sealed partial class Message
{
    /// <summary>The group's bytes (the first <see cref="_groupLength"/>); made once, on the first group, and reused.</summary>
    private byte[]? _group;

    /// <summary>Length of the group in <see cref="_group"/>; 0 for none (the empty group).</summary>
    private int _groupLength;

    /// <summary>The group as text, made on the first read and kept until the group changes.</summary>
    private string? _groupText;

    /// <summary>
    /// Gets or sets the group (libzmq's zmq_msg_group and zmq_msg_set_group, RFC 48): a message sent on a
    /// <see cref="SocketType.Radio"/> socket goes to the DISH peers that joined its group, and a message received on
    /// a <see cref="SocketType.Dish"/> socket holds the group it was sent to. The empty string, the value of a new
    /// message, of a message after it was sent and of any other received message, is the empty group (which a
    /// DISH may join too). The group is compared byte for byte, in UTF-8, with no prefix matching.
    /// </summary>
    /// <exception cref="InvalidOperationException">The message is disposed.</exception>
    /// <exception cref="ArgumentNullException">The value is null.</exception>
    /// <exception cref="ZmqException">
    /// EINVAL when the value is longer than 255 bytes in UTF-8 (libzmq 4.3's ZMQ_GROUP_MAX_LENGTH) or holds a NUL
    /// character, which libzmq's C-string groups cannot carry (RFC 48 allows the bytes 1 to 255).
    /// </exception>
    public string Group
    {
        get
        {
            EnsureInitialized();
            if (_groupLength == 0)
            {
                return string.Empty;
            }

            return _groupText ??= Encoding.UTF8.GetString(_group!, 0, _groupLength);
        }

        set
        {
            EnsureInitialized();
            ArgumentNullException.ThrowIfNull(value);
            int error = TryEncodeGroup(value, out int length);
            if (error != 0)
            {
                ThrowHelper.ThrowZmqException(error);
            }

            _groupLength = length;
            _groupText = length == 0 ? null : value;
        }
    }

    /// <summary>The group without the initialized check; the caller has validated the message.</summary>
    internal ReadOnlySpan<byte> PeekGroup => _group.AsSpan(0, _groupLength);

    /// <summary>A receive hands over the frame's group (empty but from a DISH); a send leaves it empty, as libzmq's does.</summary>
    internal void SetGroup(ReadOnlySpan<byte> group)
    {
        if (group.IsEmpty)
        {
            _groupLength = 0;
            return;
        }

        if (group.SequenceEqual(PeekGroup))
        {
            // The same group as the last message: the text made for it still holds, so a stream of one group
            // received into one Message makes no string per message.
            return;
        }

        _group ??= new byte[Tuning.RadioDish.MaxGroupLength];
        group.CopyTo(_group);
        _groupLength = group.Length;
        _groupText = null;
    }

    /// <summary>Takes <paramref name="source"/>'s group (Move, Copy).</summary>
    private void CopyGroupFrom(Message source)
    {
        SetGroup(source.PeekGroup);
        if (_groupLength != 0)
        {
            _groupText ??= source._groupText;
        }
    }

    /// <summary>Encodes <paramref name="value"/> into <see cref="_group"/>; libzmq's errno when it is not a group.</summary>
    private int TryEncodeGroup(string value, out int length)
    {
        length = 0;
        if (value.Length == 0)
        {
            return 0;
        }

        if (value.Contains('\0', StringComparison.Ordinal) || value.Length > Tuning.RadioDish.MaxGroupLength
            || Encoding.UTF8.GetByteCount(value) > Tuning.RadioDish.MaxGroupLength)
        {
            return ZmqConstants.EINVAL;
        }

        _group ??= new byte[Tuning.RadioDish.MaxGroupLength];
        length = Encoding.UTF8.GetBytes(value, _group);
        return 0;
    }
}
