using System.Net.Sockets;
using Managed.Zmq.Security;
using Managed.Zmq.Threading;
using Managed.Zmq.Transports;
using Managed.Zmq.Options;
using Managed.Zmq.Pipes;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Engine;

/// <summary>The handshake's inputs: the security settings a connection starts with, its ZAP exchange, and its deadline.</summary>
internal sealed partial class ZmtpConnection
{
    /// <summary>The security settings this connection starts with (options may change later; they apply to new connections).</summary>
    private Security.MechanismSettings CreateMechanismSettings()
    {
        var options = _host.Options;
        var mechanism = options.Mechanism;
        bool curve = mechanism == Wire.ZmtpMechanism.Curve;
        bool plainClient = mechanism == Wire.ZmtpMechanism.Plain && !options.AsServer;
        var zap = _host.Zap;

        return new Security.MechanismSettings
        {
            SocketType = _host.SocketType,
            Mechanism = mechanism,
            AsServer = options.AsServer,
            RoutingId = options.RoutingId.ToArray(),
            ApplicationMetadata = options.ApplicationMetadata,
            // Copied only for a PLAIN client, the one side that sends them: the password copy is wiped after the handshake.
            PlainUsername = plainClient ? options.PlainUsername.ToArray() : [],
            PlainPassword = plainClient ? options.PlainPassword.ToArray() : [],
            // Copied only for CURVE: a NULL or PLAIN connection holds no copy of the keys to wipe.
            CurvePublicKey = curve ? options.CurvePublicKey.ToArray() : [],
            CurveSecretKey = curve ? options.CurveSecretKey.ToArray() : [],
            CurveServerKey = curve ? options.CurveServerKey.ToArray() : [],
            ZapDomain = options.ZapDomain.ToArray(),
            IsZapHandlerBound = () => zap.IsHandlerBound,
            PeerAddress = _transport.PeerAddress,
        };
    }

    /// <summary>Asks the context's ZAP handler; the request is abandoned if the connection closes first.</summary>
    private ValueTask<IReadOnlyList<byte[]>?> ExchangeWithZapAsync(IReadOnlyList<byte[]> request)
    {
        var zap = _zap ??= new ZapRequester(_host.Zap, _ioThread);
        if (_closing)
        {
            zap.Abandon();
        }

        return zap.ExchangeAsync(request);
    }

    /// <summary>docs/libzmq-behaviour.md L14: a handshake not finished within HANDSHAKE_IVL drops the connection (a connecter retries).</summary>
    private void OnHandshakeTimeout()
    {
        if (_pipe is null)
        {
            Close(DisconnectReason.Timeout);
        }
    }
}
