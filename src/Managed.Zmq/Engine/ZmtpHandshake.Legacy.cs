using Managed.Zmq.Security;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Engine;

/// <summary>
/// The handshakes with peers older than ZMTP 3.0, as libzmq 4.3 serves them (docs/libzmq-behaviour.md L2, docs/libzmq-behaviour.md L3 and docs/libzmq-behaviour.md L25):
/// no mechanism and no commands, each side's first frame is its identity, and nothing at all when our socket uses
/// security or ZAP, since such a peer cannot authenticate. libzmq then closes with DISCONNECTED alone, and so do we.
/// </summary>
internal sealed partial class ZmtpHandshake
{
    /// <summary>True when an old peer must be refused: a mechanism other than NULL, or a ZAP domain (docs/libzmq-behaviour.md L3).</summary>
    private bool RefusesOldPeers => _settings.Mechanism.Mechanism != ZmtpMechanism.Null || _settings.Mechanism.ZapDomain.Length > 0;

    /// <summary>
    /// ZMTP 2.0 (RFC 15), as libzmq 4.3 serves an old peer: our socket type completes our greeting, the peer's is
    /// its 12th octet, and each side's first frame is its identity (no mechanism, no commands). libzmq refuses a
    /// 2.0 peer when security or ZAP is on (a 2.0 peer cannot authenticate), and so do we.
    /// </summary>
    private async ValueTask<HandshakeResult> RunZmtp20Async()
    {
        var mechanismSettings = _settings.Mechanism;
        if (RefusesOldPeers)
        {
            return HandshakeResult.FailSilently(HandshakeOutcome.UnsupportedVersion);
        }

        await _transport.SendAsync(new[] { ZmtpLegacy.GetSocketTypeOctet(mechanismSettings.SocketType) }).ConfigureAwait(true);
        if (!await FillAsync(ZmtpLegacy.Zmtp20GreetingLength).ConfigureAwait(true))
        {
            return HandshakeResult.Fail(HandshakeOutcome.ConnectionLost);
        }

        byte peerType = Received[ZmtpLegacy.Zmtp20GreetingLength - 1];
        _start += ZmtpLegacy.Zmtp20GreetingLength;

        // RFC 15 §Formal Grammar: the first message each way is the sender's identity, one frame, possibly empty.
        byte[] identityFrame = ZmtpLegacy.BuildIdentityFrame(mechanismSettings.RoutingId);
        await _transport.SendAsync(identityFrame).ConfigureAwait(true);
        var (status, header) = await ReadFrameAsync().ConfigureAwait(true);
        if (status != ZmtpStatus.Done)
        {
            return status == ZmtpStatus.Malformed
                ? HandshakeResult.FailSilently(HandshakeOutcome.ProtocolError)
                : HandshakeResult.Fail(HandshakeOutcome.ConnectionLost);
        }

        // RFC 15 §Formal Grammar: the identity is a final short frame, at most 255 octets, as every routing id here.
        if (header.More || header.IsCommand || header.BodyLength > ZmtpReady.MaxIdentityLength)
        {
            return HandshakeResult.FailSilently(HandshakeOutcome.ProtocolError);
        }

        byte[] identity = _buffer.AsSpan(_start + header.HeaderLength, (int)header.BodyLength).ToArray();
        _start += header.HeaderLength + (int)header.BodyLength;
        return new HandshakeResult
        {
            Outcome = HandshakeOutcome.Succeeded,
            PeerMinorVersion = 0,
            IsZmtp20 = true,
            PeerMetadata = DescribePeer(peerType, identity),
            Leftover = _buffer.AsMemory(_start, _end - _start),
        };
    }

    /// <summary>
    /// An unversioned ZMTP 1.0 peer (RFC 13): its first octet is not 0xFF, or bit 0 of its 10th is clear. The 10 octets
    /// we sent already are the header of our identity frame (0xFF, the routing id's length + 1, and 0x7F as the flags
    /// octet, which RFC 13 says not to validate), so the routing id follows as its body, as libzmq sends it.
    /// </summary>
    private async ValueTask<HandshakeResult> RunUnversionedAsync()
    {
        if (RefusesOldPeers)
        {
            return HandshakeResult.FailSilently(HandshakeOutcome.UnsupportedVersion);
        }

        byte[] routingId = _settings.Mechanism.RoutingId;
        if (routingId.Length > 0)
        {
            await _transport.SendAsync(routingId).ConfigureAwait(true);
        }

        // A 0MQ 2.x subscriber filters for itself and never subscribes (RFC 13 §Broadcast Content).
        bool publisher = _settings.Mechanism.SocketType is SocketType.Pub or SocketType.XPub;
        return await ReadZmtp10IdentityAsync(peerType: null, subscribesToAll: publisher).ConfigureAwait(true);
    }

    /// <summary>
    /// A versioned ZMTP 1.0 peer (revision 00): the greeting is ZMTP 2.0's (our socket type completes ours, the peer's
    /// is its 12th octet), then both identities and all traffic are RFC 13 frames. libzmq injects no subscription here.
    /// </summary>
    private async ValueTask<HandshakeResult> RunVersionedZmtp10Async()
    {
        if (RefusesOldPeers)
        {
            return HandshakeResult.FailSilently(HandshakeOutcome.UnsupportedVersion);
        }

        await _transport.SendAsync(new[] { ZmtpLegacy.GetSocketTypeOctet(_settings.Mechanism.SocketType) }).ConfigureAwait(true);
        if (!await FillAsync(ZmtpLegacy.Zmtp20GreetingLength).ConfigureAwait(true))
        {
            return HandshakeResult.Fail(HandshakeOutcome.ConnectionLost);
        }

        byte peerType = Received[ZmtpLegacy.Zmtp20GreetingLength - 1];
        _start += ZmtpLegacy.Zmtp20GreetingLength;
        await _transport.SendAsync(ZmtpLegacy.BuildZmtp10IdentityFrame(_settings.Mechanism.RoutingId)).ConfigureAwait(true);
        return await ReadZmtp10IdentityAsync(peerType, subscribesToAll: false).ConfigureAwait(true);
    }

    /// <summary>Reads the peer's identity, its first RFC 13 frame (any flags: RFC 13 says not to validate them).</summary>
    private async ValueTask<HandshakeResult> ReadZmtp10IdentityAsync(byte? peerType, bool subscribesToAll)
    {
        long bodyLength;
        int headerLength;
        while (true)
        {
            var status = Zmtp10Frame.TryReadHeader(Received, out bodyLength, out _, out headerLength);

            // RFC 13 §The Connection Layer: at most 255 octets, as every routing id here (a 3.x peer's longer Identity is refused too).
            if (status == ZmtpStatus.Malformed || (status == ZmtpStatus.Done && bodyLength > Math.Min(LargestHandshakeFrame, ZmtpReady.MaxIdentityLength)))
            {
                return HandshakeResult.FailSilently(HandshakeOutcome.ProtocolError);
            }

            if (status == ZmtpStatus.Done)
            {
                break;
            }

            if (!await FillAsync(_end - _start + 1).ConfigureAwait(true))
            {
                return HandshakeResult.Fail(HandshakeOutcome.ConnectionLost);
            }
        }

        if (!await FillAsync(headerLength + (int)bodyLength).ConfigureAwait(true))
        {
            return HandshakeResult.Fail(HandshakeOutcome.ConnectionLost);
        }

        byte[] identity = _buffer.AsSpan(_start + headerLength, (int)bodyLength).ToArray();
        _start += headerLength + (int)bodyLength;
        return new HandshakeResult
        {
            Outcome = HandshakeOutcome.Succeeded,
            PeerMinorVersion = 0,
            IsZmtp10 = true,
            SubscribesToAll = subscribesToAll,
            PeerMetadata = peerType is { } type ? DescribePeer(type, identity) : new PeerMetadata { Identity = identity },
            Leftover = _buffer.AsMemory(_start, _end - _start),
        };
    }

    /// <summary>
    /// What a ZMTP 2.0 connection tells about its peer: the greeting's socket type and the identity, for routing.
    /// Its messages carry no properties: libzmq 4.3's zmq_msg_gets finds none on them (not even Peer-Address,
    /// checked against libzmq 4.3.4), since only a 3.x handshake builds message metadata.
    /// </summary>
    private static PeerMetadata DescribePeer(byte socketTypeOctet, byte[] identity)
    {
        string? socketType = socketTypeOctet <= (byte)SocketType.XSub
            ? System.Text.Encoding.ASCII.GetString(ZmtpSocketTypes.GetName((SocketType)socketTypeOctet))
            : null;
        return new PeerMetadata { SocketType = socketType, Identity = identity };
    }
}
