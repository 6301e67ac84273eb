using System.Runtime.CompilerServices;
using Managed.Zmq.Wire;
using Managed.Zmq.Pipes;
using Managed.Zmq.Transports;

namespace Managed.Zmq.Engine;

/// <summary>CURVE on the way in: ciphertext received, decrypted into the inbound queue as plain ZMTP frames (RFC 26).</summary>
internal sealed partial class ZmtpConnection
{
    /// <summary>What a CURVE MESSAGE adds to a frame: command name, nonce, MAC, flags (RFC 26).</summary>
    private const int CipherOverhead = 64;

    /// <summary>CURVE: received ciphertext not yet decrypted.</summary>
    private byte[]? _cipherIn;
    private int _cipherStart;
    private int _cipherEnd;
    private int _pendingCipherBytes;

    /// <summary>CURVE: a box was refused; the cipher is not asked again and the connection ends once what came before it is parsed.</summary>
    private bool _cipherFailed;

    /// <summary>
    /// CURVE, during a parse on the I/O thread: plaintext bytes of the large messages it may publish without a wake-up,
    /// as a large clear frame is published (ZmtpConnection.LargeFrames.cs); 0 when the parse announces as usual.
    /// </summary>
    private int _heldLargeBytes;

    /// <summary>CURVE: one receive of ciphertext, decrypted into the inbound queue; false when the loop must end.</summary>
    /// <remarks>
    /// Pooled builder: called once per receive, it suspends whenever the socket has nothing yet, and a new box each time allocated per message.
    /// The receive may be lent to the socket's thread, which then decrypts and parses as this would (ZmtpConnection.DirectRead.cs).
    /// </remarks>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<bool> ReadEncryptedAsync(StreamPipe pipe)
    {
        int read = await ReceiveOrAnnounceAsync(CipherReceiveSpace(), lendable: true).ConfigureAwait(true);
        if (TookHandBackOrEnd(pipe, read, out bool goOn))
        {
            return goOn;
        }

        _cipherEnd += read;
        OnTrafficReceived();

        // A hand-back that has not arrived yet came first: its frames are parsed and published before these bytes are
        // decrypted, as they would have been without the turn.
        if ((_handBackPending && !TakeHandBack(pipe)) || !DecryptAndParse(pipe, holdLargeAnnouncement: true))
        {
            Close(DisconnectReason.ProtocolError);
            return false;
        }

        return true;
    }

    /// <summary>
    /// Decrypts what was received and parses it; false when the connection must end. Whole messages decrypted before a
    /// refused box are still published, as libzmq delivers what it decoded before the bad one (docs/libzmq-behaviour.md L15).
    /// With <paramref name="holdLargeAnnouncement"/> (the I/O thread's read loop), a parse that decrypted only large
    /// boxes publishes them without waking the receiver until AnnounceAfterBytes are waiting or the next receive must
    /// wait, as large clear frames are: a wake-up costs more than the copy of one such message.
    /// </summary>
    private bool DecryptAndParse(StreamPipe pipe, bool holdLargeAnnouncement = false)
    {
        bool decrypted = DecryptAvailable(pipe, out int largeBytes);
        _heldLargeBytes = holdLargeAnnouncement ? largeBytes : 0;
        try
        {
            return ParseReceived(pipe) && decrypted;
        }
        finally
        {
            _heldLargeBytes = 0;
        }
    }

    /// <summary>
    /// CURVE: where the next receive of ciphertext goes, with room for the partial box's rest, or for at most
    /// <paramref name="most"/> bytes of it (a borrower handing a large box back must not grow the buffer to the size
    /// the peer announced: that is the read loop's to do).
    /// </summary>
    private Memory<byte> CipherReceiveSpace(int most = int.MaxValue)
    {
        EnsureCipherSpace(Math.Max(MinReceiveSpace, Math.Min(_pendingCipherBytes, most) - (_cipherEnd - _cipherStart)));
        return _cipherIn.AsMemory(_cipherEnd);
    }

    /// <summary>
    /// Decrypts every whole MESSAGE received so far into the inbound queue as plain ZMTP frames,
    /// which <see cref="ParseReceived"/> then treats exactly like clear traffic. A MAC failure or a
    /// nonce that did not increase ends the connection (RFC 26 §The MESSAGE Command, docs/libzmq-behaviour.md L9).
    /// </summary>
    private bool DecryptAvailable(StreamPipe pipe, out int largeBytes)
    {
        // The plaintext decrypted, while every box is a large message frame's; 0 once one is not.
        largeBytes = 0;
        bool onlyLarge = true;
        if (_cipherFailed)
        {
            return false;
        }

        var inbound = pipe.Inbound;
        long maxMessageSize = _host.Options.MaxMessageSize;
        while (true)
        {
            var status = ZmtpFrame.TryReadHeader(_cipherIn.AsSpan(_cipherStart, _cipherEnd - _cipherStart), out var header);
            if (status == ZmtpStatus.NeedMoreData)
            {
                _pendingCipherBytes = 0;
                break;
            }

            if (status == ZmtpStatus.Malformed || header.BodyLength > LargestFrame
                || (maxMessageSize >= 0 && header.BodyLength > maxMessageSize + CipherOverhead))
            {
                _cipherFailed = true;
                return false;
            }

            int frameLength = header.HeaderLength + (int)header.BodyLength;
            if (_cipherEnd - _cipherStart < frameLength)
            {
                _pendingCipherBytes = frameLength;
                break;
            }

            var body = _cipherIn.AsSpan(_cipherStart + header.HeaderLength, (int)header.BodyLength);
            _parseOffset = inbound.EnsureSpace(body.Length, _parseOffset);
            int plain = _cipher!.Decode(body, inbound.WriteBuffer.AsSpan(inbound.WriteOffset));
            if (plain < 0)
            {
                // A forged box or a nonce that did not increase: libzmq reports it as a protocol
                // failure (ZMTP_CRYPTOGRAPHIC, ZMTP_INVALID_SEQUENCE...) before the disconnect.
                if (_cipher.Error is { IsSilent: false } error)
                {
                    _host.Monitor.Emit(error.Event, error.Value, _endpoint);
                }

                _cipherFailed = true;
                return false;
            }

            inbound.Advance(plain);
            _cipherStart += frameLength;
            onlyLarge &= plain >= DirectFrameThreshold;
            largeBytes = onlyLarge ? largeBytes + plain : 0;
        }

        if (_cipherStart == _cipherEnd)
        {
            _cipherStart = _cipherEnd = 0;
        }

        return true;
    }

    private void EnsureCipherSpace(int freeBytes)
    {
        _cipherIn ??= new byte[Math.Max(MinReceiveSpace * 4, freeBytes)];
        if (_cipherIn.Length - _cipherEnd >= freeBytes)
        {
            return;
        }

        int held = _cipherEnd - _cipherStart;
        var target = _cipherIn.Length - held >= freeBytes ? _cipherIn : new byte[Math.Max(_cipherIn.Length * 2, held + freeBytes)];
        Buffer.BlockCopy(_cipherIn, _cipherStart, target, 0, held);
        _cipherIn = target;
        _cipherStart = 0;
        _cipherEnd = held;
    }
}
