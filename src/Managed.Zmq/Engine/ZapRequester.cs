using Managed.Zmq.Core;
using Managed.Zmq.Patterns;
using Managed.Zmq.Threading;

namespace Managed.Zmq.Engine;

/// <summary>
/// Carries one ZAP request from a connection's handshake to the handler bound at
/// <c>inproc://zeromq.zap.01</c> in the same context and brings back its reply (RFC 27). Each
/// request gets its own internal DEALER, as each libzmq session has its own ZAP socket, which is
/// why libzmq can always use request id "1" (L21).
/// </summary>
internal static class ZapRequester
{
    public const string Endpoint = "zeromq.zap.01";

    public static bool IsHandlerBound(Context context) => context.Inproc.IsBound(Endpoint);

    /// <summary>Sends <paramref name="request"/> and waits (on the I/O thread, without blocking it) for the reply frames, delimiter included.</summary>
    public static async ValueTask<IReadOnlyList<byte[]>?> ExchangeAsync(Context context, IoThread ioThread, IReadOnlyList<byte[]> request)
    {
        var dealer = new SocketCore(context, SocketType.Dealer);
        var arrived = new ReactorOperation();
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
            while (true)
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
                // wait here: no notification is lost. The handshake timer bounds the wait.
                await arrived.Begin().ConfigureAwait(true);
            }
        }
        finally
        {
            dealer.Signal.RemoveListener(OnChange);
            dealer.Close();
        }
    }
}
