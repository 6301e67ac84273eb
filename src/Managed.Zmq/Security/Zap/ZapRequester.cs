using Managed.Zmq.Threading;

namespace Managed.Zmq.Security.Zap;

/// <summary>
/// Carries one connection's ZAP request from its handshake to the handler bound at
/// <c>inproc://zeromq.zap.01</c> in the same context and brings back its reply (RFC 27). Each
/// request gets its own channel (<see cref="IZapEndpoint.Open"/>: an internal DEALER), as each libzmq
/// session has its own ZAP socket, which is why libzmq can always use request id "1"
/// (docs/libzmq-behaviour.md L21): a reply can only reach the channel that asked.
/// </summary>
/// <remarks>
/// A request is abandoned with its connection (<see cref="Abandon"/>): a handler that never answers
/// must not keep a closed connection, its handshake and its channel alive. The channel closes then,
/// and a late reply finds no pipe to go to and is dropped by the handler's socket.
/// </remarks>
internal sealed class ZapRequester
{
    /// <summary>The inproc name a ZAP handler binds (RFC 27).</summary>
    public const string Endpoint = "zeromq.zap.01";

    private readonly IZapEndpoint _zap;
    private readonly IoThread _ioThread;

    /// <summary>Completed (true) when the channel's signal changes, or (false) by <see cref="Abandon"/>.</summary>
    private readonly ReactorOperation _arrived = new();

    private bool _abandoned;

    public ZapRequester(IZapEndpoint zap, IoThread ioThread)
    {
        _zap = zap;
        _ioThread = ioThread;
    }

    /// <summary>
    /// Sends <paramref name="request"/> and waits (on the I/O thread, without blocking it) for the
    /// reply frames, delimiter included; null when the exchange failed or was abandoned.
    /// </summary>
    public async ValueTask<IReadOnlyList<byte[]>?> ExchangeAsync(IReadOnlyList<byte[]> request)
    {
        if (_abandoned)
        {
            return null;
        }

        var arrived = _arrived;
        var ioThread = _ioThread;
        void OnChange() => ioThread.Schedule(static s => ((ReactorOperation)s!).Complete(true), arrived);
        using var channel = _zap.Open(OnChange);

        // RFC 27 §Message Format: an empty delimiter, then the request frames.
        channel.TrySend(default, more: true);
        for (int i = 0; i < request.Count; i++)
        {
            channel.TrySend(request[i], more: i < request.Count - 1);
        }

        var reply = new List<byte[]>();
        while (!_abandoned)
        {
            var status = channel.TryReceive(out byte[] frame, out bool more);
            if (status == ZapReceive.Received)
            {
                reply.Add(frame);
                if (!more)
                {
                    return reply;
                }

                continue;
            }

            if (status != ZapReceive.WouldBlock)
            {
                return null;
            }

            // The listener's completion is queued on this I/O thread, so it cannot run before we
            // wait here: no notification is lost. The handshake timer, or the connection's close,
            // ends the wait through Abandon.
            if (!await arrived.Begin().ConfigureAwait(true))
            {
                return null;
            }
        }

        return null;
    }

    /// <summary>
    /// The connection is closing: a waiting exchange returns null (on a later turn of the I/O thread,
    /// never inline in the caller's close), and none starts. I/O thread only.
    /// </summary>
    public void Abandon()
    {
        if (_abandoned)
        {
            return;
        }

        _abandoned = true;
        _ioThread.Schedule(static s => ((ReactorOperation)s!).Complete(false), _arrived);
    }
}
