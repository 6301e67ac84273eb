using System.Net.Sockets;
using Managed.Zmq.Security;
using Managed.Zmq.Transports;
using Managed.Zmq.Wire;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Engine;

/// <summary>
/// The ZMTP handshake as one linear method: greeting, version check (ZMTP 1.0 and 2.0 peers take a
/// shorter path, see ZmtpHandshake.Legacy.cs), then the security
/// mechanism's commands until it is ready (RFC 37 §Version Negotiation; RFC 37 §Authentication and Confidentiality;
/// RFC 23 for 3.0 peers). The mechanism is a step machine; this method does its I/O and its ZAP calls.
/// </summary>
/// <remarks>
/// The greeting goes out in libzmq 4.3's three steps (signature, major version, rest), each sent
/// as soon as the peer's corresponding octets are in, so two such peers never wait on each other
/// (docs/libzmq-behaviour.md L1). A ZMTP 2.0 or 1.0 peer is served its own protocol instead (RFC 15, RFC 13), as
/// libzmq serves it.
/// </remarks>
internal sealed partial class ZmtpHandshake
{
    /// <summary>Octet counts at which the signature read so far can show an unversioned peer: octet 0, then octet 9.</summary>
    private static readonly int[] s_signatureCheckpoints = [1, ZmtpGreeting.SignatureLength];

    private readonly IByteTransport _transport;
    private readonly HandshakeSettings _settings;
    private byte[] _buffer = new byte[256];
    private byte[] _commandBuffer = new byte[512];
    private int _start;
    private int _end;

    /// <summary>A read returned end of stream: the peer closed its side (as opposed to a reset or an error).</summary>
    private bool _peerClosed;

    public ZmtpHandshake(IByteTransport transport, HandshakeSettings settings)
    {
        _transport = transport;
        _settings = settings;
    }

    public async ValueTask<HandshakeResult> RunAsync()
    {
        try
        {
            var result = await RunCoreAsync().ConfigureAwait(true);
            if (result.Outcome == HandshakeOutcome.ConnectionLost && _peerClosed)
            {
                // libzmq's engine turns a read of 0 octets into EPIPE (docs/libzmq-behaviour.md L15).
                result.LostErrno = Errno.EPIPE;
            }

            return result;
        }
        catch (TransportProtocolException ex)
        {
            // The transport under ZMTP refused the peer (ws:// upgrade): libzmq reports it as a protocol failure.
            return HandshakeResult.Fail(HandshakeOutcome.ProtocolError, ex.ProtocolError);
        }
        catch (Exception ex) when (ex is SocketException or ObjectDisposedException or IOException or InvalidOperationException)
        {
            // A write to a peer that has gone is EPIPE (which .NET calls Shutdown), anything else as a reset.
            var lost = HandshakeResult.Fail(HandshakeOutcome.ConnectionLost);
            lost.LostErrno = ex is SocketException { SocketErrorCode: SocketError.Shutdown } ? Errno.EPIPE : ZmqConstants.ECONNRESET;
            return lost;
        }
    }

    private async ValueTask<HandshakeResult> RunCoreAsync()
    {
        var mechanismSettings = _settings.Mechanism;
        var greeting = new byte[ZmtpGreeting.Length];
        // docs/libzmq-behaviour.md L1 and docs/libzmq-behaviour.md L5: libzmq always sends as-server 0 and never reads it (roles come from local options),
        // so we send 0 too: byte-for-byte the greeting a libzmq peer would send.
        ZmtpGreeting.Write(greeting, mechanismSettings.Mechanism, asServer: false, mechanismSettings.RoutingId.Length);

        // As libzmq 4.3 does, the greeting goes out in three parts, each once the peer's matching part
        // is in: the signature at once; the major version once the peer's signature shows it is
        // versioned (RFC 23 §Detecting ZMTP 1.0 and 2.0 Peers); the rest once its revision shows it
        // speaks 3.x. A ZMTP 2.0 peer (revision 01) instead gets our socket type and ZMTP 2.0 (RFC 15).
        await _transport.SendAsync(greeting.AsMemory(0, ZmtpGreeting.SignatureLength)).ConfigureAwait(true);
        foreach (int needed in s_signatureCheckpoints)
        {
            if (!await FillAsync(needed).ConfigureAwait(true))
            {
                return HandshakeResult.Fail(HandshakeOutcome.ConnectionLost);
            }

            // An unversioned ZMTP 1.0 peer shows itself by octet 0 or octet 9, and may send no more than that.
            if (ZmtpGreeting.Classify(Received) == ZmtpGreetingKind.Unversioned)
            {
                return await RunUnversionedAsync().ConfigureAwait(true);
            }
        }

        await _transport.SendAsync(greeting.AsMemory(ZmtpGreeting.SignatureLength, 1)).ConfigureAwait(true);
        if (!await FillAsync(ZmtpGreeting.VersionPrefixLength).ConfigureAwait(true))
        {
            return HandshakeResult.Fail(HandshakeOutcome.ConnectionLost);
        }

        byte revision = Received[ZmtpGreeting.SignatureLength];
        if (revision == ZmtpLegacy.Zmtp20Revision)
        {
            return await RunZmtp20Async().ConfigureAwait(true);
        }

        if (revision == ZmtpLegacy.Zmtp10Revision)
        {
            return await RunVersionedZmtp10Async().ConfigureAwait(true);
        }

        await _transport.SendAsync(greeting.AsMemory(ZmtpGreeting.VersionPrefixLength)).ConfigureAwait(true);
        if (!await FillAsync(ZmtpGreeting.Length).ConfigureAwait(true))
        {
            return HandshakeResult.Fail(HandshakeOutcome.ConnectionLost);
        }

        ZmtpGreeting.TryParse(Received, out var peer);
        _start += ZmtpGreeting.Length;

        // RFC 23 §Authentication and Confidentiality: a mechanism that differs in any of its 20
        // octets MUST close the connection. libzmq sends no ERROR here (docs/libzmq-behaviour.md L4).
        if (peer.Mechanism != mechanismSettings.Mechanism)
        {
            return HandshakeResult.Fail(HandshakeOutcome.ProtocolError, ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_MECHANISM_MISMATCH);
        }

        var mechanism = MechanismFactory.Create(mechanismSettings);
        try
        {
            var outcome = await ExchangeCommandsAsync(mechanism).ConfigureAwait(true);
            if (outcome is not null)
            {
                mechanism.Dispose();
                return outcome;
            }
        }
        catch
        {
            mechanism.Dispose();
            throw;
        }

        return new HandshakeResult
        {
            Outcome = HandshakeOutcome.Succeeded,
            PeerMinorVersion = peer.IsZmtp30 ? (byte)0 : (byte)1,
            Mechanism = mechanism,
            PeerMetadata = mechanism.PeerMetadata,
            Leftover = _buffer.AsMemory(_start, _end - _start),
        };
    }

    /// <summary>Runs the mechanism to Ready; returns null then, or the failure.</summary>
    private async ValueTask<HandshakeResult?> ExchangeCommandsAsync(IMechanism mechanism)
    {
        while (true)
        {
            await FlushCommandsAsync(mechanism).ConfigureAwait(true);
            switch (mechanism.Status)
            {
                case MechanismStatus.Ready:
                    return null;
                case MechanismStatus.Error:
                    return Failed(mechanism.Error);
                case MechanismStatus.WaitingForZap when mechanism.TakeZapRequest() is { } request:
                    // RFC 27: the handler answers before we answer the peer.
                    var reply = _settings.ZapExchange is { } exchange ? await exchange(request).ConfigureAwait(true) : null;
                    if (reply is null)
                    {
                        return HandshakeResult.Fail(HandshakeOutcome.ConnectionLost);
                    }

                    mechanism.ProcessZapReply(reply);
                    continue;
            }

            var (status, header) = await ReadFrameAsync().ConfigureAwait(true);
            if (status != ZmtpStatus.Done)
            {
                // A frame the decoder refuses (beyond MAXMSGSIZE, or a length with its top bit set) fails in libzmq's
                // decoder, not in its mechanism, and its engine then raises DISCONNECTED alone: no handshake event for a
                // protocol error. Our own cap on handshake frames (1 MiB) is refused the same way.
                return status == ZmtpStatus.Malformed
                    ? HandshakeResult.FailSilently(HandshakeOutcome.ProtocolError)
                    : HandshakeResult.Fail(HandshakeOutcome.ConnectionLost);
            }

            // libzmq recognises handshake commands by their body alone (docs/libzmq-behaviour.md L7): the COMMAND bit is not checked.
            // A processed command is wiped: a PLAIN HELLO carries a password.
            int frameLength = header.HeaderLength + (int)header.BodyLength;
            mechanism.ProcessCommand(_buffer.AsSpan(_start + header.HeaderLength, (int)header.BodyLength));
            _buffer.AsSpan(_start, frameLength).Clear();
            _start += frameLength;
        }
    }

    private async ValueTask FlushCommandsAsync(IMechanism mechanism)
    {
        while (true)
        {
            int length = mechanism.WriteNextCommand(_commandBuffer);
            if (length < 0)
            {
                _commandBuffer = new byte[Math.Max(mechanism.MaxCommandLength, _commandBuffer.Length * 2)];
                continue;
            }

            if (length == 0)
            {
                return;
            }

            try
            {
                await _transport.SendAsync(_commandBuffer.AsMemory(0, length)).ConfigureAwait(true);
            }
            finally
            {
                // Sent (or never to be): a PLAIN client's HELLO carries its password.
                _commandBuffer.AsSpan(0, length).Clear();
            }
        }
    }

    private static HandshakeResult Failed(MechanismError error) => new()
    {
        // The peer's ERROR (a ZAP status, or a reason libzmq reports with no event) is final: no reconnect
        // with the same credentials (RFC 23 §Error Handling). Anything else is a protocol error, reported or
        // not (MechanismError.SilentProtocol).
        Outcome = error.Event == MechanismError.HandshakeFailedAuth || error == MechanismError.Silent ? HandshakeOutcome.PeerError : HandshakeOutcome.ProtocolError,
        ProtocolError = error.Event == MechanismError.HandshakeFailedProtocol || error.IsSilent ? error.Value : 0,
        MechanismError = error,
    };

    private ReadOnlySpan<byte> Received => _buffer.AsSpan(_start, _end - _start);

    /// <summary>A handshake command (or an old peer's identity) is small; anything huge is hostile (and MAXMSGSIZE applies, docs/libzmq-behaviour.md L10).</summary>
    private long LargestHandshakeFrame => _settings.MaxMessageSize >= 0 ? Math.Min(_settings.MaxMessageSize, MaxHandshakeFrame) : MaxHandshakeFrame;

    private const int MaxHandshakeFrame = Tuning.Engine.MaxHandshakeFrame;

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
                if (header.BodyLength > LargestHandshakeFrame)
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
            _buffer.AsSpan(0, _end).Clear();
            _end -= _start;
            _start = 0;
            _buffer = larger;
        }

        while (_end - _start < count)
        {
            int read = await _transport.ReceiveAsync(_buffer.AsMemory(_end)).ConfigureAwait(true);
            if (read <= 0)
            {
                _peerClosed = true;
                return false;
            }

            _end += read;
        }

        return true;
    }
}
