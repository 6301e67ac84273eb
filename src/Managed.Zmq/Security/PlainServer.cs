using System.Diagnostics;
using System.Security.Cryptography;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Security;

/// <summary>
/// The server side of PLAIN (RFC 24): HELLO is checked through ZAP, then WELCOME, INITIATE and
/// READY. Without a ZAP handler every client is refused (docs/libzmq-behaviour.md L8; as Net.Zmq does).
/// </summary>
internal sealed class PlainServer : MechanismBase
{
    /// <summary>Where the server is in the exchange.</summary>
    private State _state = State.ExpectHello;

    /// <summary>The client's password from HELLO, a ZAP request frame: wiped once ZAP has answered.</summary>
    private byte[] _password = [];

    public PlainServer(MechanismSettings settings)
        : base(settings)
    {
    }

    private enum State
    {
        ExpectHello,
        WaitingForZap,
        ExpectInitiate,
        Done,
    }

    public override ZmtpMechanism Name => ZmtpMechanism.Plain;

    protected override bool UsesLibzmqPlainErrorForm => true;

    protected override void ProcessHandshakeCommand(ReadOnlySpan<byte> body, ZmtpCommand command)
    {
        switch (_state)
        {
            case State.ExpectHello when command.Is(ZmtpCommandNames.Hello):
                ProcessHello(command.Data);
                break;
            case State.ExpectInitiate when command.Is(ZmtpCommandNames.Initiate):
                ProcessInitiate(command.Data);
                break;
            default:
                FailUnexpected();
                break;
        }
    }

    protected override void OnZapAccepted()
    {
        Debug.Assert(_state == State.WaitingForZap, "ZAP answers only the HELLO.");

        // docs/libzmq-behaviour.md L8: WELCOME goes out only after ZAP said "200"; it is exactly 07 "WELCOME".
        WipePassword();
        _state = State.ExpectInitiate;
        QueueCommand(BuildCommand(ZmtpCommandNames.Welcome, default));
    }

    private void ProcessHello(ReadOnlySpan<byte> data)
    {
        // RFC 24 §Implementation: username = OCTET *VCHAR, password = OCTET *VCHAR, and docs/libzmq-behaviour.md L8: no
        // octet may follow the password.
        if (data.IsEmpty)
        {
            FailMalformedHello();
            return;
        }

        int userLength = data[0];
        if (data.Length < 2 + userLength)
        {
            FailMalformedHello();
            return;
        }

        int passwordLength = data[1 + userLength];
        if (data.Length != 2 + userLength + passwordLength)
        {
            FailMalformedHello();
            return;
        }

        // docs/libzmq-behaviour.md L8: a PLAIN server cannot authenticate without a ZAP handler, and fails with EFAULT.
        if (!Settings.IsZapHandlerBound())
        {
            Fail(MechanismError.NoDetail(ZmqConstants.EFAULT));
            return;
        }

        _state = State.WaitingForZap;
        _password = data.Slice(2 + userLength, passwordLength).ToArray();
        RequestZap(data.Slice(1, userLength).ToArray(), _password);
    }

    private void ProcessInitiate(ReadOnlySpan<byte> metadata)
    {
        if (!TryAcceptPeerMetadata(metadata))
        {
            return;
        }

        // RFC 24 §Implementation: the server may send messages as soon as it has sent READY.
        _state = State.Done;
        QueueCommand(BuildCommand(ZmtpCommandNames.Ready, BuildOwnMetadata()), BecomeReady);
    }

    internal override IEnumerable<byte[]> SecretBuffers => [.. base.SecretBuffers, _password];

    private void WipePassword() => CryptographicOperations.ZeroMemory(_password);

    private void FailMalformedHello() =>
        Fail(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_HELLO));
}
