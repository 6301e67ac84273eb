using Managed.Zmq.Patterns;
using Managed.Zmq.Threading;
using Managed.Zmq.Sockets;

namespace Managed.Zmq.Security.Zap;

/// <summary>
/// Carries one connection's ZAP request from its handshake to the handler bound at
/// <c>inproc://zeromq.zap.01</c> in the same context and brings back its reply (RFC 27). Each
/// request gets its own internal DEALER, as each libzmq session has its own ZAP socket, which is
/// why libzmq can always use request id "1" (docs/libzmq-behaviour.md L21): a reply can only reach the DEALER that asked.
/// </summary>
/// <remarks>
/// A request is abandoned with its connection (<see cref="Abandon"/>): a handler that never answers
/// must not keep a closed connection, its handshake and its DEALER alive. The DEALER closes then,
/// and a late reply finds no pipe to go to and is dropped by the handler's socket.
/// </remarks>
internal sealed class ZapRequester
{
    public const string Endpoint = "zeromq.zap.01";

    private readonly Context _context;
    private readonly IoThread _ioThread;

    /// <summary>Completed (true) when the DEALER's signal changes, or (false) by <see cref="Abandon"/>.</summary>
    private readonly ReactorOperation _arrived = new();

    private bool _abandoned;

    public ZapRequester(Context context, IoThread ioThread)
    {
        _context = context;
        _ioThread = ioThread;
    }

    public static bool IsHandlerBound(Context context) => context.Inproc.IsBound(Endpoint);

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

        var dealer = new SocketCore(_context, SocketType.Dealer);
        var arrived = _arrived;
        var ioThread = _ioThread;
        void OnChange() => ioThread.Schedule(static s => ((ReactorOperation)s!).Complete(true), arrived);
        dealer.Signal.AddListener(OnChange);
        try
        {
            dealer.ConnectInproc(Endpoint);

            // RFC 27 §Message Format: an empty delimiter, then the request frames.
            dealer.Send(default, more: true, dontWait: true);
            for (int i = 0; i < request.Count; i++)
            {
                dealer.Send(request[i], more: i < request.Count - 1, dontWait: true);
            }

            var reply = new List<byte[]>();
            while (!_abandoned)
            {
                var sink = default(ArraySink);
                var status = dealer.Recv(ref sink, dontWait: true);
                if (status == RecvStatus.Received)
                {
                    reply.Add(sink.Data);
                    if (!sink.More)
                    {
                        return reply;
                    }

                    continue;
                }

                if (status != RecvStatus.WouldBlock)
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
        finally
        {
            dealer.Signal.RemoveListener(OnChange);
            dealer.Close();
        }
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
