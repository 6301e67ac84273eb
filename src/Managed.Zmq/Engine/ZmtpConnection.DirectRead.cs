using System.Diagnostics;
using Managed.Zmq.Pipes;
using Managed.Zmq.Transports;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Engine;

/// <summary>The direct read: the user thread reads a reply itself while the read loop waits (see docs/ARCHITECTURE.md, the read turn).</summary>
internal sealed partial class ZmtpConnection
{
    /// <summary>A borrower handed bytes back for the read loop to parse; nobody borrows until the loop has.</summary>
    private bool _handBackPending;

    /// <summary>A borrower's parse refused a frame: the read loop ends the connection.</summary>
    private bool _directParseFailed;

    /// <summary>
    /// Runs on the socket's user thread about to wait in Recv on this, its one connection: borrows the read loop's
    /// turn, waits in the kernel for input up to <paramref name="microseconds"/> (through <paramref name="wait"/>, which
    /// another thread may end early), reads and publishes the whole
    /// messages itself: the reply then costs the caller's wake-up alone, not the I/O thread's as well. Under CURVE it
    /// decrypts what it received first, as the read loop would. Only the plain case is taken: data frames within
    /// bounds, a large frame's body included, which is read into a buffer of its own (ZmtpConnection.LentLargeFrames.cs).
    /// A box that fails to decrypt, a command (it may need an answer from the write side), a malformed or oversized frame,
    /// a large frame's rest that did not come within the wait, a large box's rest, the end of the stream or an error are
    /// handed back to the read loop, which parses or meets them as if it had received them. <see cref="DirectReadOutcome.Read"/> when
    /// something was read, or a message is already queued (the caller tries its receive again), and
    /// <see cref="DirectReadOutcome.HandedBack"/> when part of it went back to the read loop;
    /// <see cref="DirectReadOutcome.Quiet"/> when nothing came within the wait.
    /// With <paramref name="onlyIfAway"/> (a Recv that must not wait), only a turn a Recv left away is borrowed: the
    /// read loop reads whatever else comes.
    /// </summary>
    public DirectReadOutcome ReadDirect(StreamPipe pipe, int microseconds, bool onlyIfAway, Threading.InterruptibleWait? wait)
    {
        if (_closing || _raw || _expectsGroupFrames || Volatile.Read(ref _handBackPending)
            || !ReferenceEquals(Volatile.Read(ref _pipe), pipe) || !_transport.TryLendReceive(onlyIfAway))
        {
            return DirectReadOutcome.Declined;
        }

        var inbound = pipe.Inbound;
        bool encrypted = _cipher is not null;
        var how = LentReturn.Idle;
        try
        {
            // The loop may have published a message after the caller found none and before the turn was lent: the
            // caller receives that now instead of waiting in the kernel for the next one.
            if (inbound.QueuedMessages > 0)
            {
                return DirectReadOutcome.Read;
            }

            // The rest of a large box is the read loop's: it sized the ciphertext buffer for it, and a borrower that read
            // into it could leave too little room behind and have to grow a buffer that large before it gives the turn back.
            if (encrypted && _pendingCipherBytes >= DirectFrameThreshold)
            {
                return DirectReadOutcome.Declined;
            }

            long waitEnd = WaitEnd(microseconds);
            if (!encrypted && _pendingFrameBytes >= DirectFrameThreshold)
            {
                // An earlier read on the turn ended with a large frame's header, or the loop offers a body it began:
                // the body is next.
                if (!IsDirectFrameWaiting(pipe, out var waiting))
                {
                    // Too large for a buffer of its own, or a command: the read loop's, whose receive is still pending as
                    // it left it (nothing was read here, so nothing to hand back).
                    return DirectReadOutcome.Declined;
                }

                how = ReadLargeFrameLent(pipe, waiting, waitEnd, wait) ? LentReturn.Away : LentReturn.HandBack;
                return HandBackIf(how);
            }

            // Lent only while the loop waits in its plain receive (ReceiveLendableAsync), so the queue (under CURVE, the
            // ciphertext buffer) is as it left it. Right after a large frame, a short receive, as the loop's: a stream's
            // next frame is likely large too, and its body is read into a buffer of its own rather than into the queue.
            // An offered body is always a large frame's at the parse offset, taken above, never a receive into the queue.
            Debug.Assert(!_largeFrameOffered, "an offered body reached the plain receive");
            bool shortened = !encrypted && _followsLargeFrame;
            var space = LendingSpace(inbound).Span;

            int read = _transport.ReceiveLent(space, microseconds, wait);
            if (read == 0)
            {
                return DirectReadOutcome.Quiet;
            }

            if (read < 0)
            {
                how = LentReturn.HandBack;
                Volatile.Write(ref _handBackPending, true);
                return DirectReadOutcome.Declined;
            }

            if (encrypted)
            {
                _cipherEnd += read;
            }
            else
            {
                inbound.Advance(read);
                _followsLargeFrame = false;
                if (!shortened)
                {
                    AdaptReceiveSpace(read, space.Length);
                }
            }

            OnTrafficReceived();

            // A refused box (its monitor event is out) goes back with the messages decrypted before it: the loop
            // publishes those, then ends the connection.
            bool plain = (!encrypted || DecryptAvailable(pipe, out _)) && OnlyPlainFrames(inbound);
            if (plain && !ParseReceived(pipe))
            {
                // Not expected once the frames passed OnlyPlainFrames; the loop ends the connection as its own parse would.
                _directParseFailed = true;
            }

            if (plain && !_directParseFailed && !encrypted && IsDirectFrameWaiting(pipe, out var large))
            {
                if (inbound.QueuedMessages > 0)
                {
                    // The caller takes the queued message first; its next Recv reads the body (the large frame path above),
                    // or, if none comes, the loop does once it has the turn back.
                    how = LentReturn.Away;
                    return DirectReadOutcome.Read;
                }

                // A large frame's body: read here as well, unless it does not all come before the wait ends.
                how = ReadLargeFrameLent(pipe, large, waitEnd, wait) ? LentReturn.Away : LentReturn.HandBack;
                return HandBackIf(how);
            }

            if (!plain || _directParseFailed || _pendingFrameBytes >= DirectFrameThreshold || _pendingCipherBytes >= DirectFrameThreshold)
            {
                how = LentReturn.HandBack;
                Volatile.Write(ref _handBackPending, true);
                return DirectReadOutcome.HandedBack;
            }

            how = LentReturn.Away;
            return DirectReadOutcome.Read;
        }
        finally
        {
            if (_lentLargeFrame is not null && !_largeFrameOffered && how != LentReturn.HandBack)
            {
                // A body begun here and left unfinished goes to the loop with nothing received in between (a hand-back),
                // whatever ended this read, a throw included: its first part is no longer in the queue.
                how = LentReturn.HandBack;
                Volatile.Write(ref _handBackPending, true);
            }

            _transport.ReturnLent(ReturnSpace(inbound), how);
        }
    }

    /// <summary>After a large frame on the turn: notes a hand-back (<paramref name="how"/>) before the turn goes back.</summary>
    private DirectReadOutcome HandBackIf(LentReturn how)
    {
        if (how != LentReturn.HandBack)
        {
            return DirectReadOutcome.Read;
        }

        Volatile.Write(ref _handBackPending, true);
        return DirectReadOutcome.HandedBack;
    }

    /// <summary>
    /// Where a borrower's receive goes, and the loop's when the turn comes back: under CURVE the ciphertext buffer, grown
    /// for at most a large frame's worth of a partial box; else the inbound queue, short right after a large frame (as
    /// the loop's own receive then is: the next frame's body is read into a buffer of its own, not into the queue).
    /// </summary>
    private Memory<byte> LendingSpace(FrameQueue inbound)
    {
        if (_cipher is not null)
        {
            return CipherReceiveSpace(DirectFrameThreshold);
        }

        var space = PlainReceiveSpace(inbound);
        return _followsLargeFrame ? space[..Math.Min(space.Length, ReadAfterLargeFrame)] : space;
    }

    /// <summary>Where the read loop's next plain receive goes: the inbound queue's free space, at least the adapted size.</summary>
    private Memory<byte> PlainReceiveSpace(FrameQueue inbound)
    {
        _parseOffset = inbound.EnsureSpace(_receiveSpace, _parseOffset);
        return inbound.WriteBuffer.AsMemory(inbound.WriteOffset);
    }

    /// <summary>Any thread but the I/O thread's: a read turn left away goes back to the read loop (Poller, ZMQ_EVENTS).</summary>
    public void ReclaimRead() => _transport.ReclaimLent();

    /// <summary>
    /// True when the frames received and not yet parsed are data frames the caller's thread may parse: no command, and
    /// none the parser would refuse (a malformed header, a body beyond MAXMSGSIZE or the largest frame).
    /// </summary>
    private bool OnlyPlainFrames(FrameQueue inbound)
    {
        var buffer = inbound.WriteBuffer.AsSpan(0, inbound.WriteOffset);
        long maxMessageSize = _host.Options.MaxMessageSize;
        int offset = _parseOffset;
        while (true)
        {
            var status = ZmtpFrame.TryReadHeader(buffer[offset..], out var header);
            if (status == ZmtpStatus.NeedMoreData)
            {
                return true;
            }

            if (status == ZmtpStatus.Malformed || header.IsCommand || header.BodyLength > LargestFrame
                || (maxMessageSize >= 0 && header.BodyLength > maxMessageSize))
            {
                return false;
            }

            if (buffer.Length - offset < header.FrameLength)
            {
                return true;
            }

            offset += (int)header.FrameLength;
        }
    }

    /// <summary>
    /// Read loop, at the end of the stream or a connection error: bytes a borrower handed back before it are parsed first,
    /// as they would have been without the turn. The reason to close with.
    /// </summary>
    private DisconnectReason LostAfterHandBack(StreamPipe pipe) =>
        _handBackPending && !TakeHandBack(pipe) ? DisconnectReason.ProtocolError : DisconnectReason.ConnectionLost;

    /// <summary>
    /// Read loop: a borrower handed bytes back (<see cref="ReadDirect"/>); parses them, with whatever the loop received
    /// after them if the reactor served the receive before the hand-back arrived. False on a protocol error, a CURVE box
    /// the borrower refused included: the messages decrypted before it are published first.
    /// </summary>
    private bool TakeHandBack(StreamPipe pipe)
    {
        // Cleared first: nobody borrows while the loop runs, and a parse that throws is not repeated by the loop's catch.
        Volatile.Write(ref _handBackPending, false);
        return !_directParseFailed && ParseReceived(pipe) && !_cipherFailed;
    }
}
