using System.Diagnostics;
using System.Text;
using Managed.Zmq.Wire;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Security;

/// <summary>
/// What every mechanism shares: the one-slot outgoing command, status and error, the peer's
/// metadata, ERROR handling and the ZAP round trip.
/// </summary>
/// <remarks>
/// A mechanism never has more than one handshake command due at a time, so one slot is enough.
/// A command can change the status once it has been written: READY from a server makes it Ready
/// (it may send at once: RFC 24 for PLAIN, RFC 26 for CURVE), and an ERROR makes it fail only after the ERROR has gone out,
/// so the engine sends the ERROR before it closes.
/// </remarks>
internal abstract class MechanismBase : IMechanism
{
    /// <summary>The next command frame to send, header included, or null.</summary>
    private byte[]? _pendingCommand;

    /// <summary>Applied when <see cref="_pendingCommand"/> has been written.</summary>
    private Action? _afterWrite;

    /// <summary>The ZAP request not yet taken by the engine.</summary>
    private byte[][]? _zapRequest;

    /// <summary>The peer's metadata, kept until the handshake completes.</summary>
    private string? _peerSocketType;

    private byte[] _peerIdentity = [];

    private Dictionary<string, byte[]> _peerProperties = new(StringComparer.OrdinalIgnoreCase);

    /// <summary>What ZAP said about the peer.</summary>
    private ZapReply? _zapReply;

    /// <summary>Set when an ERROR is due: the handshake is over, whatever else arrives.</summary>
    private bool _errorPending;

    protected MechanismBase(MechanismSettings settings)
    {
        Settings = settings;
    }

    public abstract ZmtpMechanism Name { get; }

    public MechanismStatus Status { get; private set; }

    public MechanismError Error { get; private set; }

    public PeerMetadata PeerMetadata { get; private set; } = PeerMetadata.Empty;

    public virtual bool EncryptsTraffic => false;

    public int MaxCommandLength => _pendingCommand?.Length ?? 0;

    protected internal MechanismSettings Settings { get; }

    /// <summary>Test hook: every mechanism as it is disposed (tests check its <see cref="SecretBuffers"/> after close).</summary>
    internal static event Action<MechanismBase>? DisposedForTests;

    /// <summary>
    /// The buffers of this mechanism that hold secrets (keys, a password): all zero once it has
    /// failed or been disposed (tests check them). The long-term CURVE secret in <see cref="Settings"/>
    /// is the connection's copy, which the connection wipes.
    /// </summary>
    internal virtual IEnumerable<byte[]> SecretBuffers => [];


    public int WriteNextCommand(Span<byte> destination)
    {
        byte[]? command = _pendingCommand;
        if (command is null)
        {
            return 0;
        }

        if (destination.Length < command.Length)
        {
            return -1;
        }

        command.CopyTo(destination);
        _pendingCommand = null;
        Action? afterWrite = _afterWrite;
        _afterWrite = null;
        afterWrite?.Invoke();
        return command.Length;
    }

    public void ProcessCommand(ReadOnlySpan<byte> commandBody)
    {
        if (Status == MechanismStatus.Error || _errorPending)
        {
            return;
        }

        if (UsesLibzmqPlainErrorForm && commandBody.StartsWith(LibzmqPlainErrorPrefix))
        {
            // libzmq's PLAIN ERROR (see SendErrorThenFail): 0x5E "RROR", reason length, reason.
            var rest = commandBody[LibzmqPlainErrorPrefix.Length..];
            if (rest.IsEmpty || rest[0] != rest.Length - 1)
            {
                Fail(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_ERROR));
                return;
            }

            ProcessErrorReason(rest[1..]);
            return;
        }

        // RFC 23 §Commands: a body that is not even a command (no name) is unexpected.
        if (!ZmtpCommandCodec.TryParse(commandBody, out ZmtpCommand command))
        {
            Fail(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_UNEXPECTED_COMMAND));
            return;
        }

        ProcessHandshakeCommand(commandBody, command);
    }

    public virtual int Encode(ReadOnlySpan<byte> frame, Span<byte> destination)
    {
        // Clear-text mechanisms send frames as they are.
        if (destination.Length < frame.Length)
        {
            return -1;
        }

        frame.CopyTo(destination);
        return frame.Length;
    }

    public virtual int GetEncodedLength(int frameBodyLength) => ZmtpFrame.GetHeaderLength(frameBodyLength) + frameBodyLength;

    public virtual int Decode(ReadOnlySpan<byte> commandBody, Span<byte> destination)
    {
        Debug.Fail("Only encrypting mechanisms decode traffic.");
        return -2;
    }

    public IReadOnlyList<byte[]>? TakeZapRequest()
    {
        byte[][]? request = _zapRequest;
        _zapRequest = null;
        return request;
    }

    public void ProcessZapReply(IReadOnlyList<byte[]> replyFrames)
    {
        if (Status != MechanismStatus.WaitingForZap)
        {
            return;
        }

        _zapRequest = null;
        ZapReply reply = ZapClient.ParseReply(replyFrames);
        if (!reply.IsWellFormed)
        {
            Fail(MechanismError.Protocol(reply.ProtocolError));
            return;
        }

        if (reply.StatusCode == 200)
        {
            _zapReply = reply;
            Status = MechanismStatus.Handshaking;
            OnZapAccepted();
            return;
        }

        // RFC 27 §Message Format and docs/libzmq-behaviour.md L7, docs/libzmq-behaviour.md L8 and docs/libzmq-behaviour.md L9: a refusal is HANDSHAKE_FAILED_AUTH with the status.
        // libzmq tells the peer with ERROR "400" or "500", and says nothing for the temporary "300".
        var error = MechanismError.Auth(reply.StatusCode);
        if (reply.StatusCode == 300)
        {
            Fail(error);
            return;
        }

        Status = MechanismStatus.Handshaking;
        SendErrorThenFail(reply.StatusCode == 400 ? "400"u8 : "500"u8, error);
    }

    public virtual void Dispose()
    {
        WipeSecrets();
        _pendingCommand = null;
        _afterWrite = null;
        _zapRequest = null;
        DisposedForTests?.Invoke(this);
    }

    /// <summary>Handles one handshake command; <paramref name="command"/> is <paramref name="body"/> split into name and data.</summary>
    protected abstract void ProcessHandshakeCommand(ReadOnlySpan<byte> body, ZmtpCommand command);

    /// <summary>Called when ZAP answered 200: carry on with the handshake.</summary>
    protected abstract void OnZapAccepted();

    /// <summary>Makes <paramref name="frame"/> the next command; <paramref name="afterWrite"/> runs once it is written.</summary>
    protected void QueueCommand(byte[] frame, Action? afterWrite = null)
    {
        Debug.Assert(_pendingCommand is null, "A mechanism has at most one command due at a time.");
        _pendingCommand = frame;
        _afterWrite = afterWrite;
    }

    /// <summary>Fails now: no command will be sent.</summary>
    protected void Fail(MechanismError error)
    {
        _pendingCommand = null;
        _afterWrite = null;
        _zapRequest = null;
        Error = error;
        Status = MechanismStatus.Error;

        // The subclass stops its traffic first (CURVE refuses to seal once its keys are marked wiped, under the lock a
        // seal holds), so that nothing is sealed with a key half zeroed by the wipe below.
        OnFailed();
        WipeSecrets();
    }

    /// <summary>Zeroes every buffer <see cref="SecretBuffers"/> names: on failure and on close, whichever mechanism this is.</summary>
    private void WipeSecrets()
    {
        foreach (var buffer in SecretBuffers)
        {
            SecretWipe.Wipe(buffer);
        }
    }

    /// <summary>Called when the mechanism fails, before <see cref="SecretBuffers"/> are wiped; override to stop using them and release more.</summary>
    protected virtual void OnFailed()
    {
    }

    /// <summary>Queues ERROR with <paramref name="reason"/> and fails once it is written.</summary>
    protected void SendErrorThenFail(ReadOnlySpan<byte> reason, MechanismError error)
    {
        byte[] frame;
        if (UsesLibzmqPlainErrorForm)
        {
            // libzmq 4.3's PLAIN writes its ERROR prefix as the C literal "\x05ERROR", which C reads as
            // 0x5E "RROR"; its PLAIN client accepts only that form, so a PLAIN server sends it.
            frame = new byte[ZmtpFrame.GetHeaderLength(LibzmqPlainErrorPrefix.Length + 1 + reason.Length) + LibzmqPlainErrorPrefix.Length + 1 + reason.Length];
            int header = ZmtpFrame.WriteHeader(frame, LibzmqPlainErrorPrefix.Length + 1 + reason.Length, ZmtpFrameFlags.Command);
            LibzmqPlainErrorPrefix.CopyTo(frame.AsSpan(header));
            frame[header + LibzmqPlainErrorPrefix.Length] = (byte)reason.Length;
            reason.CopyTo(frame.AsSpan(header + LibzmqPlainErrorPrefix.Length + 1));
        }
        else
        {
            frame = new byte[ZmtpError.GetFrameLength(reason.Length)];
            ZmtpError.WriteFrame(frame, reason);
        }

        Error = error;
        _errorPending = true;
        QueueCommand(frame, () => Fail(error));
    }

    /// <summary>Asks the engine to consult ZAP with these credentials (RFC 27).</summary>
    protected void RequestZap(params byte[][] credentials)
    {
        _zapRequest = ZapClient.BuildRequest(Settings.ZapDomain, Settings.PeerAddress, Settings.RoutingId, Name, credentials);
        Status = MechanismStatus.WaitingForZap;
    }

    /// <summary>Marks the handshake complete and publishes the peer's metadata.</summary>
    protected void BecomeReady()
    {
        Debug.Assert(!_errorPending && Status != MechanismStatus.Error, "A failed handshake never completes.");
        // ZAP's word beats the peer's own READY properties, as in libzmq (PeerPropertyMerge.Merge).
        var properties = PeerPropertyMerge.Merge(Settings.PeerAddress, _zapReply, _peerProperties);
        string userId = _zapReply?.UserId ?? string.Empty;

        PeerMetadata = new PeerMetadata
        {
            SocketType = _peerSocketType,
            Identity = _peerIdentity,
            UserId = userId,
            Properties = properties,
        };
        Status = MechanismStatus.Ready;
    }

    /// <summary>
    /// Reads the peer's metadata (READY or INITIATE); fails when it is bad (docs/libzmq-behaviour.md L6: malformed, or
    /// a Socket-Type ours cannot talk to), or when its Identity is longer than RFC 23 allows
    /// (RFC 23 §The Identity Property: 0 to 255 octets). libzmq takes such an Identity; we refuse it the way libzmq refuses a property it rejects, so a
    /// peer cannot make us keep (and key a ROUTER's table on) a huge routing id.
    /// </summary>
    /// <remarks>
    /// The failure raises ZMTP_INVALID_METADATA only where libzmq raises it, in the PLAIN and CURVE clients (see
    /// <see cref="ReportsInvalidMetadata"/>); NULL and the PLAIN and CURVE servers close with DISCONNECTED alone.
    /// Either way it is a protocol error: the connection is not retried.
    /// </remarks>
    protected bool TryAcceptPeerMetadata(ReadOnlySpan<byte> metadata)
    {
        if (!PeerMetadataReader.TryRead(metadata, Settings.SocketType, out string? socketType, out byte[] identity, out Dictionary<string, byte[]> properties)
            || identity.Length > ZmtpReady.MaxIdentityLength)
        {
            const int invalidMetadata = ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_INVALID_METADATA;
            Fail(ReportsInvalidMetadata ? MechanismError.Protocol(invalidMetadata) : MechanismError.SilentProtocol(invalidMetadata));
            return false;
        }

        _peerSocketType = socketType;
        _peerIdentity = identity;
        _peerProperties = properties;
        return true;
    }

    /// <summary>Handles a received ERROR command (RFC 23 §Error Handling): the handshake fails.</summary>
    /// <remarks>
    /// A reason that is a ZAP status ("300", "400", "500") is reported as HANDSHAKE_FAILED_AUTH with
    /// that number; any other reason ends the connection with no handshake event, as in libzmq (docs/libzmq-behaviour.md L7).
    /// </remarks>
    protected void ProcessError(ZmtpCommand command)
    {
        if (!ZmtpError.TryParse(command.Data, out ReadOnlySpan<byte> reason))
        {
            Fail(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_ERROR));
            return;
        }

        ProcessErrorReason(reason);
    }

    private void ProcessErrorReason(ReadOnlySpan<byte> reason)
    {
        if (reason.Length == 3 && reason[0] is >= (byte)'3' and <= (byte)'5' && reason[1] == (byte)'0' && reason[2] == (byte)'0')
        {
            Fail(MechanismError.Auth((reason[0] - '0') * 100));
            return;
        }

        Fail(MechanismError.Silent);
    }

    /// <summary>The bytes libzmq's PLAIN sends where RFC 24 has <c>05 "ERROR"</c>.</summary>
    private static ReadOnlySpan<byte> LibzmqPlainErrorPrefix => [0x5E, (byte)'R', (byte)'R', (byte)'O', (byte)'R'];

    /// <summary>PLAIN sends and accepts ERROR in libzmq's form (and accepts the RFC form too).</summary>
    protected virtual bool UsesLibzmqPlainErrorForm => false;

    /// <summary>
    /// Whether bad peer metadata raises HANDSHAKE_FAILED_PROTOCOL with ZMTP_INVALID_METADATA (true for the PLAIN and
    /// CURVE clients, reading the server's READY) or closes with no handshake event (docs/libzmq-behaviour.md L6).
    /// </summary>
    protected virtual bool ReportsInvalidMetadata => false;

    /// <summary>Fails with ZMTP_UNEXPECTED_COMMAND.</summary>
    protected void FailUnexpected() => Fail(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_UNEXPECTED_COMMAND));

    /// <summary>A whole command frame with this name and data.</summary>
    protected static byte[] BuildCommand(ReadOnlySpan<byte> name, ReadOnlySpan<byte> data)
    {
        var frame = new byte[ZmtpCommandCodec.GetFrameLength(name.Length, data.Length)];
        ZmtpCommandCodec.WriteFrame(frame, name, data);
        return frame;
    }

    /// <summary>Our metadata block: Socket-Type, for REQ/DEALER/ROUTER Identity (RFC 23; docs/libzmq-behaviour.md L6), then the Metadata option's properties.</summary>
    protected byte[] BuildOwnMetadata()
    {
        var metadata = new byte[ZmtpReady.GetMetadataLength(Settings.SocketType, Settings.RoutingId, Settings.ApplicationMetadata)];
        ZmtpReady.WriteMetadata(metadata, Settings.SocketType, Settings.RoutingId, Settings.ApplicationMetadata);
        return metadata;
    }
}
