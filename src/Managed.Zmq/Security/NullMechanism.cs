using Managed.Zmq.Wire;

namespace Managed.Zmq.Security;

/// <summary>
/// The NULL mechanism (RFC 37 §The NULL Security Mechanism, as in RFC 23): each side sends READY with its
/// metadata; with a ZAP domain and a handler, READY waits for ZAP's "200" (docs/libzmq-behaviour.md L7).
/// </summary>
internal sealed class NullMechanism : MechanismBase
{
    /// <summary>Our READY has been written.</summary>
    private bool _readySent;

    /// <summary>The peer's READY has been accepted.</summary>
    private bool _peerReadyReceived;

    /// <summary>A ZAP domain and handler are set: ZAP is asked once the peer's READY is in.</summary>
    private readonly bool _zapAfterPeerReady;

    public NullMechanism(MechanismSettings settings)
        : base(settings)
    {
        // docs/libzmq-behaviour.md L7: with ZMQ_ZAP_DOMAIN set and a handler bound, ask ZAP before READY; without a handler
        // the connection is accepted (as in Net.Zmq). libzmq asks as soon as the greeting is done, so its ERROR can reach
        // a libzmq client that has not sent its READY yet; that client then takes the close for a lost connection and
        // reconnects, which after a refusal it must not (docs/libzmq-behaviour.md L7, docs/libzmq-behaviour.md L15). Asking once the
        // client's READY is in leaves no such window; the request itself is the same.
        _zapAfterPeerReady = settings.ZapDomain.Length > 0 && settings.IsZapHandlerBound();
        if (!_zapAfterPeerReady)
        {
            QueueReady();
        }
    }

    public override ZmtpMechanism Name => ZmtpMechanism.Null;

    protected override void ProcessHandshakeCommand(ReadOnlySpan<byte> body, ZmtpCommand command)
    {
        // docs/libzmq-behaviour.md L7: anything after the peer's READY, before our handshake is done, is unexpected.
        if (_peerReadyReceived)
        {
            FailUnexpected();
            return;
        }

        if (command.Is(ZmtpCommandNames.Ready))
        {
            // RFC 37: the server SHOULD parse the client's READY and MAY validate it.
            if (TryAcceptPeerMetadata(command.Data))
            {
                _peerReadyReceived = true;
                if (_zapAfterPeerReady)
                {
                    RequestZap();
                }
                else
                {
                    TryComplete();
                }
            }
        }
        else if (command.Is(ZmtpCommandNames.Error))
        {
            ProcessError(command);
        }
        else
        {
            FailUnexpected();
        }
    }

    protected override void OnZapAccepted() => QueueReady();

    private void QueueReady()
    {
        var frame = new byte[ZmtpReady.GetFrameLength(Settings.SocketType, Settings.RoutingId, Settings.ApplicationMetadata)];
        ZmtpReady.WriteFrame(frame, Settings.SocketType, Settings.RoutingId, Settings.ApplicationMetadata);
        QueueCommand(frame, () =>
        {
            _readySent = true;
            TryComplete();
        });
    }

    /// <summary>RFC 37: traffic flows once a peer has both sent and received READY.</summary>
    private void TryComplete()
    {
        if (_readySent && _peerReadyReceived && Status == MechanismStatus.Handshaking)
        {
            BecomeReady();
        }
    }
}
