using Managed.Zmq.Security.Crypto;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Security;

/// <summary>Everything a mechanism needs from the socket's options, taken when the connection starts.</summary>
internal sealed class MechanismSettings
{
    public required SocketType SocketType { get; init; }

    public ZmtpMechanism Mechanism { get; init; } = ZmtpMechanism.Null;

    /// <summary>PLAIN or CURVE server role (from Plain_Server / Curve_Server; docs/libzmq-behaviour.md L5: never from the greeting).</summary>
    public bool AsServer { get; init; }

    /// <summary>Our routing id: sent as Identity by REQ, DEALER and ROUTER, and as ZAP's identity frame (docs/libzmq-behaviour.md L21).</summary>
    public byte[] RoutingId { get; init; } = [];

    /// <summary>The Metadata option's properties, already encoded as RFC 23 properties in the order libzmq sends them.</summary>
    public byte[] ApplicationMetadata { get; init; } = [];

    public byte[] PlainUsername { get; init; } = [];

    public byte[] PlainPassword { get; init; } = [];

    public byte[] CurvePublicKey { get; init; } = [];

    public byte[] CurveSecretKey { get; init; } = [];

    public byte[] CurveServerKey { get; init; } = [];

    public byte[] ZapDomain { get; init; } = [];

    /// <summary>
    /// Whether a ZAP handler is bound at inproc://zeromq.zap.01 in the socket's context now. Asked when a request would
    /// be made (PLAIN's HELLO, CURVE's INITIATE, NULL's start), as libzmq asks then, not once when the connection
    /// starts: a handler may come or go while a handshake waits for its peer (docs/libzmq-behaviour.md L7;
    /// docs/libzmq-behaviour.md L8; docs/libzmq-behaviour.md L9).
    /// </summary>
    public Func<bool> IsZapHandlerBound { get; init; } = static () => false;

    /// <summary>The peer's IP address (no port) for ZAP requests, or empty.</summary>
    public string PeerAddress { get; init; } = string.Empty;

    /// <summary>The CURVE primitives for this connection (the managed ones unless a provider was installed).</summary>
    public ICurveCryptoProvider CurveCrypto { get; init; } = CurveCryptoProviders.Default;
}
