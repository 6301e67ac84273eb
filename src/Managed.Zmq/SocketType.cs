namespace Managed.Zmq;

/// <summary>The ZeroMQ socket types, numbered as libzmq numbers them: the classic types, then the draft (RFC 41) ones.</summary>
public enum SocketType
{
    /// <summary>Exclusive pair: exactly one peer (RFC 31).</summary>
    Pair = 0,
    /// <summary>Publisher: sends to every matching subscriber, drops at HWM (RFC 29).</summary>
    Pub = 1,
    /// <summary>Subscriber: receives what matches its subscriptions (RFC 29).</summary>
    Sub = 2,
    /// <summary>Request: strict send/receive alternation with an empty delimiter (RFC 28).</summary>
    Req = 3,
    /// <summary>Reply: strict receive/send alternation, routes replies back (RFC 28).</summary>
    Rep = 4,
    /// <summary>Dealer: round-robin send, fair-queued receive (RFC 28).</summary>
    Dealer = 5,
    /// <summary>Router: addresses peers by routing id (RFC 28).</summary>
    Router = 6,
    /// <summary>Pull: fair-queued receive from pushers (RFC 30).</summary>
    Pull = 7,
    /// <summary>Push: round-robin send to pullers, blocks at HWM (RFC 30).</summary>
    Push = 8,
    /// <summary>Extended publisher: also delivers subscriptions to the application (RFC 29).</summary>
    XPub = 9,
    /// <summary>Extended subscriber: subscribes by sending subscription messages (RFC 29).</summary>
    XSub = 10,
    /// <summary>Raw TCP stream addressed by connection id.</summary>
    Stream = 11,
    /// <summary>
    /// Server (RFC 41, a libzmq draft type, ZMQ_SERVER): fair-queued receive of single-part messages, each stamped
    /// with the sending peer's <see cref="Message.RoutingId"/>; a reply is sent as a <see cref="Message"/> carrying it.
    /// Talks to <see cref="Client"/> peers only.
    /// </summary>
    Server = 12,
    /// <summary>
    /// Client (RFC 41, a libzmq draft type, ZMQ_CLIENT): round-robin send and fair-queued receive of single-part
    /// messages. Talks to <see cref="Server"/> peers only.
    /// </summary>
    Client = 13,
    /// <summary>
    /// Radio (RFC 48, a libzmq draft type, ZMQ_RADIO): sends single-part messages, each to the <see cref="Dish"/> peers
    /// that joined its <see cref="Message.Group"/> (exact match), dropping it for a peer whose queue is full; never
    /// receives. Works over tcp, ipc, inproc and, connecting, udp.
    /// </summary>
    Radio = 14,
    /// <summary>
    /// Dish (RFC 48, a libzmq draft type, ZMQ_DISH): receives the messages of the groups it joined
    /// (<see cref="Socket.Join"/>, <see cref="Socket.Leave"/>), each with its <see cref="Message.Group"/>; never sends.
    /// Talks to <see cref="Radio"/> peers only; binds udp to receive datagrams.
    /// </summary>
    Dish = 15,
    /// <summary>
    /// Gather (RFC 49, a libzmq draft type, ZMQ_GATHER): fair-queued receive of single-part messages from
    /// <see cref="Scatter"/> peers, as PULL but thread-safe; it cannot send. A multipart message from a peer is dropped.
    /// </summary>
    Gather = 16,
    /// <summary>
    /// Scatter (RFC 49, a libzmq draft type, ZMQ_SCATTER): round-robin send of single-part messages to
    /// <see cref="Gather"/> peers, as PUSH but thread-safe; it cannot receive.
    /// </summary>
    Scatter = 17,
    /// <summary>
    /// Peer (RFC 51, a libzmq draft type, ZMQ_PEER): SERVER's routing (single-part messages, each received one
    /// stamped with the sending peer's <see cref="Message.RoutingId"/>, each sent one going to the peer its routing
    /// id names) on a socket that also connects: <see cref="Socket.ConnectPeer"/> returns the new peer's routing id
    /// at once, before the connection is up. Thread-safe. Talks to <see cref="Peer"/> peers only.
    /// </summary>
    Peer = 19,
    /// <summary>
    /// Channel (RFC 52, a libzmq draft type, ZMQ_CHANNEL): single-part messages both ways with exactly one
    /// <see cref="Channel"/> peer, as PAIR but thread-safe.
    /// </summary>
    Channel = 20,
}
