using System.Diagnostics;
using System.Security.Cryptography;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Security;

/// <summary>The client side of PLAIN (RFC 24): HELLO, then INITIATE after WELCOME, done at READY.</summary>
internal sealed class PlainClient : MechanismBase
{
    /// <summary>The longest user name or password: its length travels in one octet (RFC 24 §Implementation).</summary>
    public const int MaxCredentialLength = byte.MaxValue;

    /// <summary>The HELLO frame, password included: wiped once written, or when the mechanism ends.</summary>
    private readonly byte[] _hello;

    /// <summary>True after WELCOME, when READY (or ERROR) is the only acceptable answer.</summary>
    private bool _welcomed;

    public PlainClient(MechanismSettings settings)
        : base(settings)
    {
        byte[] user = settings.PlainUsername;
        byte[] password = settings.PlainPassword;
        Debug.Assert(user.Length <= MaxCredentialLength && password.Length <= MaxCredentialLength, "Options keep credentials to 255 octets (docs/libzmq-behaviour.md L8).");

        // RFC 24 §Implementation: hello = command-size %d5 "HELLO" username password, each a
        // one-octet length and its octets.
        var data = new byte[2 + user.Length + password.Length];
        data[0] = (byte)user.Length;
        user.CopyTo(data, 1);
        data[1 + user.Length] = (byte)password.Length;
        password.CopyTo(data, 2 + user.Length);
        _hello = BuildCommand(ZmtpCommandNames.Hello, data);
        CryptographicOperations.ZeroMemory(data);
        QueueCommand(_hello, WipeHello);
    }

    public override ZmtpMechanism Name => ZmtpMechanism.Plain;

    protected override bool UsesLibzmqPlainErrorForm => true;

    protected override bool ReportsInvalidMetadata => true;

    protected override void ProcessHandshakeCommand(ReadOnlySpan<byte> body, ZmtpCommand command)
    {
        // RFC 24 §Implementation: plain = C:hello ( S:welcome | S:error ) C:initiate ( S:ready | S:error ).
        if (command.Is(ZmtpCommandNames.Error))
        {
            ProcessError(command);
            return;
        }

        if (!_welcomed)
        {
            if (!command.Is(ZmtpCommandNames.Welcome))
            {
                FailUnexpected();
                return;
            }

            // docs/libzmq-behaviour.md L8: WELCOME is exactly 07 "WELCOME"; anything more is malformed.
            if (!command.Data.IsEmpty)
            {
                Fail(MechanismError.Protocol(ZmqConstants.ZMQ_PROTOCOL_ERROR_ZMTP_MALFORMED_COMMAND_WELCOME));
                return;
            }

            _welcomed = true;
            QueueCommand(BuildCommand(ZmtpCommandNames.Initiate, BuildOwnMetadata()));
            return;
        }

        if (!command.Is(ZmtpCommandNames.Ready))
        {
            FailUnexpected();
            return;
        }

        // RFC 24 §Implementation: the client may send messages once it has received READY.
        if (TryAcceptPeerMetadata(command.Data))
        {
            BecomeReady();
        }
    }

    protected override void OnZapAccepted() => Debug.Fail("A PLAIN client never consults ZAP.");

    internal override IEnumerable<byte[]> SecretBuffers => [.. base.SecretBuffers, _hello];

    private void WipeHello() => CryptographicOperations.ZeroMemory(_hello);
}
