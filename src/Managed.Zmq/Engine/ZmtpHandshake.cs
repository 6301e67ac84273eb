using System.Net.Sockets;
using Managed.Zmq.Transports;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Engine;

/// <summary>
/// The ZMTP 3.x handshake as one linear method: greeting, version check, mechanism, READY and
/// metadata (RFC 23/37 §Version Negotiation, §The NULL Security Mechanism).
/// </summary>
/// <remarks>
/// We send all 64 greeting octets at once: libzmq sends its first 10, waits for ours, and only then
/// sends the rest (L1), so waiting for more than the peer's first 11 octets before sending would
/// deadlock (RFC 23 §Version Negotiation: "a peer ... MUST send its full greeting").
/// </remarks>
internal sealed class ZmtpHandshake
{
    private readonly IByteTransport _transport;
    private readonly HandshakeSettings _settings;
    private byte[] _buffer = new byte[256];
    private int _start;
    private int _end;

    public ZmtpHandshake(IByteTransport transport, HandshakeSettings settings)
    {
        _transport = transport;
        _settings = settings;
    }

    public async ValueTask<HandshakeResult> RunAsync()
    {
        try
        {
            return await RunCoreAsync().ConfigureAwait(true);
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException or IOException or InvalidOperationException)
        {
            return HandshakeResult.Fail(HandshakeOutcome.ConnectionLost);
        }
    }

    private async ValueTask<HandshakeResult> RunCoreAsync()
    {
        var greeting = new byte[ZmtpGreeting.Length];
        ZmtpGreeting.Write(greeting, _settings.Mechanism, _settings.AsServer);
        await _transport.SendAsync(greeting).ConfigureAwait(true);

        // RFC 23 §Version Negotiation: the first 11 octets say whether the peer is 3.x at all.
        if (!await FillAsync(ZmtpGreeting.VersionPrefixLength).ConfigureAwait(true))
        {
            return HandshakeResult.Fail(HandshakeOutcome.ConnectionLost);
        }

        if (ZmtpGreeting.Classify(Received) != ZmtpGreetingKind.Zmtp3)
        {
            // A peer we cannot downgrade to: RFC 23 says we MUST close the connection.
            return HandshakeResult.Fail(HandshakeOutcome.UnsupportedVersion);
        }

        if (!await FillAsync(ZmtpGreeting.Length).ConfigureAwait(true))
        {
            return HandshakeResult.Fail(HandshakeOutcome.ConnectionLost);
        }

        ZmtpGreeting.TryParse(Received, out var peer);
        _start += ZmtpGreeting.Length;

        // RFC 23 §Authentication and Confidentiality: a mechanism that differs in any of its 20
        // octets MUST close the connection. libzmq sends no ERROR here (L4).
        if (peer.Mechanism != _settings.Mechanism)
        {
            return HandshakeResult.Fail(HandshakeOutcome.ProtocolError, ProtocolErrors.ZmtpMechanismMismatch);
        }

        // NULL: both sides send READY straight away (L7); traffic waits for the peer's READY (RFC 37).
        var ready = new byte[ZmtpReady.GetFrameLength(_settings.SocketType, _settings.RoutingId)];
        ZmtpReady.WriteFrame(ready, _settings.SocketType, _settings.RoutingId);
        await _transport.SendAsync(ready).ConfigureAwait(true);

        var (status, header) = await ReadFrameAsync().ConfigureAwait(true);
        if (status != ZmtpStatus.Done)
        {
            return status == ZmtpStatus.Malformed
                ? HandshakeResult.Fail(HandshakeOutcome.ProtocolError, ProtocolErrors.ZmtpUnspecified)
                : HandshakeResult.Fail(HandshakeOutcome.ConnectionLost);
        }

        var body = _buffer.AsSpan(_start + header.HeaderLength, (int)header.BodyLength);
        _start += header.HeaderLength + (int)header.BodyLength;

        // libzmq recognises handshake commands by their body alone (L7), so we do not insist on the COMMAND bit.
        if (!ZmtpCommandCodec.TryParse(body, out var command))
        {
            return HandshakeResult.Fail(HandshakeOutcome.ProtocolError, ProtocolErrors.ZmtpUnexpectedCommand);
        }

        if (command.Is(ZmtpCommandNames.Error))
        {
            if (!ZmtpError.TryParse(command.Data, out var reason))
            {
                return HandshakeResult.Fail(HandshakeOutcome.ProtocolError, ProtocolErrors.ZmtpMalformedCommandError);
            }

            return new HandshakeResult { Outcome = HandshakeOutcome.PeerError, PeerErrorReason = System.Text.Encoding.ASCII.GetString(reason) };
        }

        if (!command.Is(ZmtpCommandNames.Ready))
        {
            return HandshakeResult.Fail(HandshakeOutcome.ProtocolError, ProtocolErrors.ZmtpUnexpectedCommand);
        }

        if (!ZmtpReady.TryParse(command.Data, out var properties))
        {
            return HandshakeResult.Fail(HandshakeOutcome.ProtocolError, ProtocolErrors.ZmtpMalformedCommandReady);
        }

        SocketType? peerType = null;
        if (properties.HasSocketType)
        {
            // RFC 23 §The Socket-Type Property: an unknown or incompatible type ends the connection
            // (libzmq closes without ERROR, L6). A missing Socket-Type is accepted, as libzmq does.
            if (!ZmtpSocketTypes.TryParseName(properties.SocketType, out var parsed)
                || !ZmtpSocketTypes.AreCompatible(_settings.SocketType, parsed))
            {
                return HandshakeResult.Fail(HandshakeOutcome.IncompatibleSocketType, ProtocolErrors.ZmtpInvalidMetadata);
            }

            peerType = parsed;
        }

        return new HandshakeResult
        {
            Outcome = HandshakeOutcome.Succeeded,
            PeerMinorVersion = peer.IsZmtp30 ? (byte)0 : (byte)1,
            PeerSocketType = peerType,
            PeerIdentity = properties.HasIdentity ? properties.Identity.ToArray() : [],
            Leftover = _buffer.AsMemory(_start, _end - _start),
        };
    }

    private ReadOnlySpan<byte> Received => _buffer.AsSpan(_start, _end - _start);

    private async ValueTask<(ZmtpStatus Status, ZmtpFrameHeader Header)> ReadFrameAsync()
    {
        while (true)
        {
            var status = ZmtpFrame.TryReadHeader(Received, out var header);
            if (status == ZmtpStatus.Malformed)
            {
                return (status, header);
            }

            if (status == ZmtpStatus.Done)
            {
                // A handshake command is small; anything huge is hostile (and MAXMSGSIZE applies, L10).
                long limit = _settings.MaxMessageSize >= 0 ? Math.Min(_settings.MaxMessageSize, 1 << 20) : 1 << 20;
                if (header.BodyLength > limit)
                {
                    return (ZmtpStatus.Malformed, header);
                }

                if (await FillAsync(header.HeaderLength + (int)header.BodyLength).ConfigureAwait(true))
                {
                    return (ZmtpStatus.Done, header);
                }

                return (ZmtpStatus.NeedMoreData, header);
            }

            if (!await FillAsync(_end - _start + 1).ConfigureAwait(true))
            {
                return (ZmtpStatus.NeedMoreData, header);
            }
        }
    }

    /// <summary>Reads until at least <paramref name="count"/> unread bytes are buffered; false if the peer closed.</summary>
    private async ValueTask<bool> FillAsync(int count)
    {
        if (_buffer.Length - _start < count)
        {
            var larger = new byte[Math.Max(count, _buffer.Length * 2)];
            Buffer.BlockCopy(_buffer, _start, larger, 0, _end - _start);
            _end -= _start;
            _start = 0;
            _buffer = larger;
        }

        while (_end - _start < count)
        {
            int read = await _transport.ReceiveAsync(_buffer.AsMemory(_end)).ConfigureAwait(true);
            if (read <= 0)
            {
                return false;
            }

            _end += read;
        }

        return true;
    }
}
