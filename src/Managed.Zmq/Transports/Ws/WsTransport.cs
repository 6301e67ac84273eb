using System.Buffers.Binary;
using System.Security.Cryptography;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Transports.Ws;

/// <summary>
/// ZWS 2.0 (RFC 45) under the ZMTP engine: an <see cref="IByteTransport"/> over a TCP one that
/// performs the WebSocket upgrade (RFC 6455 §4), then translates ZMTP frames to WebSocket binary
/// messages and back, so the engine runs unchanged and the tcp path is untouched.
/// </summary>
/// <remarks>
/// <para>ZWS has no ZMTP greeting: the mechanism is chosen by Sec-WebSocket-Protocol. The engine's
/// outgoing greeting is dropped and a greeting naming the agreed mechanism is handed to it. That
/// greeting says ZMTP 3.0, so the engine sends subscriptions as 0x01/0x00 messages, as
/// RFC 45 §Publish-Subscribe asks. Under CURVE too: libzmq's ws engine does not read SUBSCRIBE/CANCEL
/// commands (its own SUB sends them inside CURVE MESSAGEs, which we accept), but takes the
/// message form (docs/libzmq-behaviour.md L22).</para>
/// <para>Heartbeats use WebSocket ping and pong, as libzmq's ws engine does: the engine's PING
/// command goes out as a ping frame, a pong comes back to the engine as a PONG command, and a
/// peer's ping is answered here with a pong. A close frame is echoed and ends the stream.</para>
/// <para>Each ZMTP frame is one unfragmented message; libzmq refuses fragments (a FIN-less frame),
/// and so do we. Everything runs on the connection's I/O thread, like the engine's two loops.</para>
/// </remarks>
internal sealed partial class WsTransport : IByteTransport
{
    /// <summary>Room for the synthesized greeting, a ZMTP frame header or a PONG command.</summary>
    private const int SynthesizedCapacity = 128;

    /// <summary>A command frame up to this body length is gathered whole, so PING and PONG can be told apart.</summary>
    private const int MaxInspectedCommandBody = 64;

    private readonly IByteTransport _inner;
    private readonly bool _client;
    private readonly ZmtpMechanism _mechanism;
    private readonly string _protocol;
    private readonly string _host;
    private readonly string _path;

    /// <summary>"ws" or "wss": how our endpoints are named (Socket.GetPeers).</summary>
    private readonly string _scheme;

    private bool _upgraded;

    // Receive side: raw socket octets, then ZMTP octets made from them.
    private byte[] _in = new byte[WsLimits.InitialReceiveBufferSize];
    private int _inStart;
    private int _inEnd;
    private readonly byte[] _synth = new byte[SynthesizedCapacity];
    private int _synthStart;
    private int _synthEnd;
    private long _inBodyLeft;
    private bool _inMasked;
    private uint _inMaskKey;
    private long _inMaskOffset;
    private bool _peerClosed;

    // Send side: the engine's ZMTP octets, then WebSocket frames made from them.
    private int _greetingLeft = ZmtpGreeting.Length;
    private readonly byte[] _out = new byte[WsLimits.SendBufferSize];
    private int _outLength;
    private readonly byte[] _frameHead = new byte[ZmtpFrame.MaxHeaderLength + MaxInspectedCommandBody];
    private int _frameHeadFill;
    private long _outBodyLeft;
    private uint _outMaskKey;
    private long _outMaskOffset;
    private bool _inSend;
    private uint _maskState;

    // Control frames (pong, close echo) from the receive side, sent between data frames.
    private readonly byte[] _control = new byte[WsLimits.MaxQueuedControlOctets];
    private int _controlLength;
    private Task? _controlSend;

    /// <summary>Ping and pong frames received (IByteTransport.KeepAlivesReceived).</summary>
    private long _keepAlivesReceived;

    private WsTransport(IByteTransport inner, bool client, ZmtpMechanism mechanism, string host, string path, string scheme)
    {
        _scheme = scheme;
        _inner = inner;
        _client = client;
        _mechanism = mechanism;
        _protocol = WsProtocols.For(mechanism);
        _host = host;
        _path = path;
        _maskState = (uint)RandomNumberGenerator.GetInt32(1, int.MaxValue);
    }

    /// <summary>The connecting side: sends the upgrade request for <paramref name="host"/> and <paramref name="path"/>, masks its frames.</summary>
    public static WsTransport ForClient(IByteTransport inner, ZmtpMechanism mechanism, string host, string path, string scheme = "ws") =>
        new(inner, client: true, mechanism, host, path, scheme);

    /// <summary>The accepting side: answers the upgrade request, expects masked frames.</summary>
    public static WsTransport ForServer(IByteTransport inner, ZmtpMechanism mechanism, string scheme = "ws") =>
        new(inner, client: false, mechanism, string.Empty, string.Empty, scheme);

    public string PeerAddress => _inner.PeerAddress;

    public string LocalEndpoint => AsWs(_inner.LocalEndpoint);

    public string RemoteEndpoint => AsWs(_inner.RemoteEndpoint);

    public int Handle => _inner.Handle;

    private string AsWs(string endpoint) =>
        endpoint.StartsWith("tcp://", StringComparison.Ordinal) ? _scheme + "://" + endpoint["tcp://".Length..] : endpoint;

    public void Dispose() => _inner.Dispose();

    private static TransportProtocolException ProtocolError(string what) =>
        new(ZmqConstants.ZMQ_PROTOCOL_ERROR_WS_UNSPECIFIED, "ws: " + what);

    // ---------------------------------------------------------------- upgrade

    private async ValueTask UpgradeAsync()
    {
        _upgraded = true;
        if (_client)
        {
            string key = WsUpgrade.CreateKey();
            await _inner.SendAsync(WsUpgrade.BuildRequest(_host, _path, key, _protocol)).ConfigureAwait(true);
            int head = await ReadHeadAsync(response: true).ConfigureAwait(true);
            if (!WsUpgrade.TryAcceptResponse(_in.AsSpan(0, head), key, _protocol))
            {
                throw ProtocolError("the upgrade response was refused");
            }

            _inStart = head;
        }
        else
        {
            int head = await ReadHeadAsync(response: false).ConfigureAwait(true);
            if (!WsUpgrade.TryAcceptRequest(_in.AsSpan(0, head), _protocol, out string key))
            {
                // libzmq answers nothing and closes.
                throw ProtocolError("the upgrade request was refused");
            }

            _inStart = head;
            await _inner.SendAsync(WsUpgrade.BuildResponse(WsUpgrade.ComputeAccept(key), _protocol)).ConfigureAwait(true);
        }

        // The greeting the engine would have had from a ZMTP peer of this mechanism (see remarks).
        ZmtpGreeting.Write(_synth, _mechanism, asServer: false);
        _synth[ZmtpGreeting.VersionPrefixLength] = 0;

        _synthStart = 0;
        _synthEnd = ZmtpGreeting.Length;
    }

    /// <summary>
    /// Reads until the HTTP head is complete; returns its length. Octets after it stay in the buffer. A head that
    /// cannot be the <paramref name="response"/> or request expected is refused as soon as that shows.
    /// </summary>
    private async ValueTask<int> ReadHeadAsync(bool response)
    {
        while (true)
        {
            if (WsUpgrade.CannotStartWith(_in.AsSpan(0, _inEnd), response ? WsUpgrade.ResponseStart : WsUpgrade.RequestStart))
            {
                throw ProtocolError("the peer does not speak HTTP");
            }

            int end = WsUpgrade.FindHeadEnd(_in.AsSpan(0, _inEnd));
            if (end >= 0)
            {
                return end;
            }

            if (_inEnd >= WsLimits.MaxHttpHeadLength)
            {
                throw ProtocolError("the upgrade head is too long");
            }

            int read = await _inner.ReceiveAsync(_in.AsMemory(_inEnd, WsLimits.MaxHttpHeadLength - _inEnd)).ConfigureAwait(true);
            if (read == 0)
            {
                throw new IOException("ws: the peer closed during the upgrade");
            }

            _inEnd += read;
        }
    }
}
