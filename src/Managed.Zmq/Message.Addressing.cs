using System.Text;
using Managed.Zmq.Internal;

namespace Managed.Zmq;

/// <summary>
/// Where a draft-socket message goes or came from: the routing id (SERVER, RFC 41) and the group (RADIO and DISH,
/// RFC 48).
/// </summary>
public sealed partial class Message
{
    /// <summary>
    /// The routing id and group, made the first time this message carries either and reused after: one reference in
    /// every Message, so a message that never carries one (all but the draft sockets') stays as small as it was.
    /// </summary>
    private MessageAddressing? _addressing;

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
            return _addressing is { GroupLength: > 0 } addressing ? addressing.GroupText : string.Empty;
        }

        set
        {
            EnsureInitialized();
            ArgumentNullException.ThrowIfNull(value);
            if (value.Length == 0)
            {
                SetGroup(default);
                return;
            }

            if (value.Contains('\0', StringComparison.Ordinal) || value.Length > Tuning.RadioDish.MaxGroupLength
                || Encoding.UTF8.GetByteCount(value) > Tuning.RadioDish.MaxGroupLength)
            {
                ThrowHelper.ThrowZmqException(ZmqConstants.EINVAL);
            }

            (_addressing ??= new MessageAddressing()).SetGroupText(value);
        }
    }

    /// <summary>The routing id without the initialized check; the caller has validated the message.</summary>
    internal uint PeekRoutingId => _addressing is { } addressing ? addressing.RoutingId : 0;

    /// <summary>The group without the initialized check; the caller has validated the message.</summary>
    internal ReadOnlySpan<byte> PeekGroup => _addressing is { } addressing ? addressing.Group : default;

    /// <summary>A receive hands over the frame's routing id (0 but from a SERVER); a send leaves 0, as libzmq's does.</summary>
    internal void SetRoutingId(uint routingId)
    {
        if (_addressing is { } addressing)
        {
            addressing.RoutingId = routingId;
        }
        else if (routingId != 0)
        {
            _addressing = new MessageAddressing { RoutingId = routingId };
        }
    }

    /// <summary>A receive hands over the frame's group (empty but from a DISH); a send leaves it empty, as libzmq's does.</summary>
    internal void SetGroup(ReadOnlySpan<byte> group)
    {
        if (_addressing is { } addressing)
        {
            addressing.SetGroup(group);
        }
        else if (!group.IsEmpty)
        {
            (_addressing = new MessageAddressing()).SetGroup(group);
        }
    }

    /// <summary>Takes <paramref name="source"/>'s routing id and group (Move, Copy: zmq_msg_copy copies both).</summary>
    private void CopyAddressingFrom(Message source)
    {
        SetRoutingId(source.PeekRoutingId);
        SetGroup(source.PeekGroup);
        if (source._addressing is { GroupLength: > 0 } from)
        {
            _addressing!.ShareGroupText(from);
        }
    }

    /// <summary>No routing id, the empty group (a message moved out or sent).</summary>
    internal void ClearAddressing()
    {
        SetRoutingId(0);
        SetGroup(default);
    }

    /// <summary>A routing id, and a group's bytes with its text once asked for.</summary>
    private sealed class MessageAddressing
    {
        private byte[]? _group;
        private string? _groupText;

        public uint RoutingId { get; set; }

        public int GroupLength { get; private set; }

        public ReadOnlySpan<byte> Group => _group.AsSpan(0, GroupLength);

        /// <summary>The group's text, made on the first read and kept until the group changes.</summary>
        public string GroupText => _groupText ??= Encoding.UTF8.GetString(_group!, 0, GroupLength);

        public void SetGroupText(string text)
        {
            GroupLength = Encoding.UTF8.GetBytes(text, _group ??= new byte[Tuning.RadioDish.MaxGroupLength]);
            _groupText = text;
        }

        public void SetGroup(ReadOnlySpan<byte> group)
        {
            if (group.IsEmpty)
            {
                GroupLength = 0;
                return;
            }

            if (group.SequenceEqual(Group))
            {
                // The same group as the last message: its text still holds, so a stream of one group received into
                // one Message makes no string per message.
                return;
            }

            group.CopyTo(_group ??= new byte[Tuning.RadioDish.MaxGroupLength]);
            GroupLength = group.Length;
            _groupText = null;
        }

        public void ShareGroupText(MessageAddressing other) => _groupText ??= other._groupText;
    }
}
