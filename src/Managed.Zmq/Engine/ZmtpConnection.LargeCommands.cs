using System.Runtime.CompilerServices;
using Managed.Zmq.Wire;
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Engine;

internal sealed partial class ZmtpConnection
{
    /// <summary>What the read loop does with a large command frame whose header is in and whose body is not.</summary>
    private enum LargeCommand
    {
        /// <summary>No large command is waiting, or it is kept (a publisher's SUBSCRIBE): buffer it whole.</summary>
        None,

        /// <summary>Too little of the body is in to decide: receive more, without room for the whole frame.</summary>
        NeedPrefix,

        /// <summary>Answered or ignored already: receive the rest of it into nothing.</summary>
        Discard,
    }

    /// <summary>
    /// Decides on the large command frame waiting at the parse offset from the start of its body: its name,
    /// and for PING the TTL and context. A command that is dropped anyway (docs/libzmq-behaviour.md L11) need not be buffered, so a
    /// peer's one huge unknown command costs no memory of its size. <paramref name="remaining"/> is what is
    /// still to come of a frame to discard.
    /// </summary>
    private LargeCommand ExamineLargeCommand(StreamPipe pipe, in ZmtpFrameHeader header, out long remaining)
    {
        remaining = 0;
        var inbound = pipe.Inbound;
        var pending = inbound.WriteBuffer.AsSpan(_parseOffset, inbound.WriteOffset - _parseOffset);

        var prefix = pending[header.HeaderLength..];
        if (prefix.IsEmpty || (prefix[0] != 0 && prefix.Length < 1 + prefix[0] + sizeof(ushort) + ZmtpHeartbeat.MaxContextLength))
        {
            return LargeCommand.NeedPrefix;
        }

        if (HandleCommand(prefix))
        {
            return LargeCommand.None;
        }

        remaining = header.HeaderLength + header.BodyLength - pending.Length;
        return LargeCommand.Discard;
    }

    /// <summary>Drops the partial command at the parse offset and receives the <paramref name="remaining"/> octets of it into the queue's free space, keeping none; false when the connection ended.</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<bool> DiscardCommandAsync(StreamPipe pipe, long remaining)
    {
        var inbound = pipe.Inbound;
        inbound.Truncate(_parseOffset);
        _pendingFrameBytes = 0;
        while (remaining > 0 && !_closing)
        {
            _parseOffset = inbound.EnsureSpace(MinReceiveSpace, _parseOffset);
            var space = inbound.WriteBuffer.AsMemory(inbound.WriteOffset);
            int read = await ReceiveOrAnnounceAsync(space[..(int)Math.Min(space.Length, remaining)]).ConfigureAwait(true);
            if (read <= 0)
            {
                Close(DisconnectReason.ConnectionLost);
                return false;
            }

            remaining -= read;
            OnTrafficReceived();
        }

        return true;
    }
}
