using System.Net.Security;
using System.Runtime.CompilerServices;
using System.Security.Authentication;

namespace Managed.Zmq.Transports.Tls;

/// <summary>
/// TLS under the WebSocket of wss:// (RFC 45 runs ZWS 2.0 over it as over plain TCP): an
/// <see cref="IByteTransport"/> whose bytes travel through a <see cref="SslStream"/> over the connected
/// transport. The handshake runs on the first send or receive, which the ws layer makes when it starts
/// its upgrade, so it counts against the handshake interval like the rest of the handshake.
/// </summary>
/// <remarks>
/// The layer above neither knows nor cares that its bytes are encrypted. Every step stays on the
/// connection's I/O thread: SslStream awaits only the transport below, which completes there. A TLS
/// failure (an untrusted certificate, a name mismatch, an alert from the peer) becomes an
/// <see cref="IOException"/>, so the connection ends as on any broken stream: during the handshake
/// the monitor shows HANDSHAKE_FAILED_NO_DETAIL, as libzmq's wss engine reports its TLS errors.
/// </remarks>
internal sealed class TlsTransport : IByteTransport
{
    private readonly IByteTransport _inner;
    private readonly SslStream _ssl;
    private readonly SslClientAuthenticationOptions? _client;
    private readonly SslServerAuthenticationOptions? _server;
    private Task? _handshake;

    private TlsTransport(IByteTransport inner, SslClientAuthenticationOptions? client, SslServerAuthenticationOptions? server)
    {
        _inner = inner;
        _client = client;
        _server = server;
        _ssl = new SslStream(new TransportStream(inner), leaveInnerStreamOpen: true);
    }

    /// <summary>The connecting side: checks the server's certificate with <paramref name="trust"/>.</summary>
    public static TlsTransport ForClient(IByteTransport inner, TlsClientTrust trust) => new(inner, trust.CreateOptions(), null);

    /// <summary>The accepting side: presents <paramref name="credentials"/>.</summary>
    public static TlsTransport ForServer(IByteTransport inner, TlsServerCredentials credentials) => new(inner, null, credentials.CreateOptions());

    public string PeerAddress => _inner.PeerAddress;

    public int Handle => _inner.Handle;

    public string LocalEndpoint => _inner.LocalEndpoint;

    public string RemoteEndpoint => _inner.RemoteEndpoint;

    public ValueTask<int> ReceiveAsync(Memory<byte> buffer) =>
        _handshake is { IsCompletedSuccessfully: true } ? _ssl.ReadAsync(buffer) : ReceiveAfterHandshakeAsync(buffer);

    public ValueTask SendAsync(ReadOnlyMemory<byte> data) =>
        _handshake is { IsCompletedSuccessfully: true } && data.Length <= TlsLimits.MaxRecordPlaintext
            ? _ssl.WriteAsync(data)
            : SendInRecordsAsync(data);

    public void Dispose()
    {
        _ssl.Dispose();
        _inner.Dispose();
    }

    private async ValueTask<int> ReceiveAfterHandshakeAsync(Memory<byte> buffer)
    {
        await HandshakeAsync().ConfigureAwait(true);
        return await _ssl.ReadAsync(buffer).ConfigureAwait(true);
    }

    /// <summary>After the handshake, <paramref name="data"/> in writes of at most <see cref="TlsLimits.MaxRecordPlaintext"/> octets, one record each.</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    private async ValueTask SendInRecordsAsync(ReadOnlyMemory<byte> data)
    {
        if (_handshake is not { IsCompletedSuccessfully: true })
        {
            await HandshakeAsync().ConfigureAwait(true);
        }

        while (!data.IsEmpty)
        {
            int length = Math.Min(data.Length, TlsLimits.MaxRecordPlaintext);
            await _ssl.WriteAsync(data[..length]).ConfigureAwait(true);
            data = data[length..];
        }
    }

    private async Task HandshakeAsync()
    {
        _handshake ??= _client is not null
            ? _ssl.AuthenticateAsClientAsync(_client, CancellationToken.None)
            : _ssl.AuthenticateAsServerAsync(_server!, CancellationToken.None);
        try
        {
            await _handshake.ConfigureAwait(true);
        }
        catch (AuthenticationException ex)
        {
            // A refused certificate or a peer's alert ends this connection like any broken stream.
            throw new IOException("wss: TLS handshake failed: " + ex.Message, ex);
        }
    }
}
