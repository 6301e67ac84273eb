using Managed.Zmq.Options;
using Managed.Zmq.Patterns;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Sockets;

/// <summary>
/// A context's way to its ZAP handler (RFC 27): each request gets a fresh internal DEALER connected
/// to <c>inproc://zeromq.zap.01</c>, as each libzmq session has its own ZAP socket.
/// </summary>
internal sealed class ZapDealer : IZapEndpoint
{
    private readonly ISocketContext _context;

    public ZapDealer(ISocketContext context) => _context = context;

    public bool IsHandlerBound => _context.Inproc.IsBound(ZapRequester.Endpoint);

    public IZapChannel Open(Action onChange) => new Channel(_context, onChange);

    private sealed class Channel : IZapChannel
    {
        private readonly SocketCore _dealer;
        private readonly Action _onChange;

        public Channel(ISocketContext context, Action onChange)
        {
            _dealer = new SocketCore(context, SocketType.Dealer);

            // LINGER 0: a request still queued when its exchange ends (the connection that asked has gone) goes with
            // the channel. With the default, a request made while no handler is bound would wait in the context for
            // good, and a handler bound later would be handed every such stale request.
            int status = _dealer.Options.TrySet(OptionId.Linger, [0, 0, 0, 0]);
            System.Diagnostics.Debug.Assert(status == 0, "LINGER 0 is always accepted");
            _onChange = onChange;
            _dealer.Signal.AddListener(onChange);
            _dealer.ConnectInproc(ZapRequester.Endpoint);
        }

        public bool TrySend(ReadOnlySpan<byte> frame, bool more) =>
            _dealer.Send(frame, more, dontWait: true) == SendStatus.Sent;

        public ZapReceive TryReceive(out byte[] frame, out bool more)
        {
            var sink = default(ArraySink);
            var status = _dealer.Recv(ref sink, dontWait: true);
            frame = sink.Data;
            more = sink.More;
            return status switch
            {
                RecvStatus.Received => ZapReceive.Received,
                RecvStatus.WouldBlock => ZapReceive.WouldBlock,
                _ => ZapReceive.Failed,
            };
        }

        public void Dispose()
        {
            _dealer.Signal.RemoveListener(_onChange);
            _dealer.Close();
        }
    }
}
