

namespace Managed.Zmq.Patterns;

/// <summary>Picks the routing rules for a socket type.</summary>
internal static class PatternFactory
{
    public static Pattern Create(IPatternHost socket, SocketType socketType) => socketType switch
    {
        SocketType.Pair => new Pair(socket),
        SocketType.Pub => new Pub(socket, isXPub: false),
        SocketType.XPub => new Pub(socket, isXPub: true),
        SocketType.Sub => new Sub(socket, isXSub: false),
        SocketType.XSub => new Sub(socket, isXSub: true),
        SocketType.Req => new Req(socket),
        SocketType.Rep => new Rep(socket),
        SocketType.Dealer => new Dealer(socket),
        SocketType.Push => new Push(socket),
        SocketType.Pull => new Pull(socket),
        SocketType.Router => new Router(socket),
        SocketType.Stream => new RawStream(socket),
        SocketType.Server => new Server(socket),
        SocketType.Client => new Client(socket),
        SocketType.Radio => new Radio(socket),
        SocketType.Dish => new Dish(socket),
        SocketType.Gather => new Gather(socket),
        SocketType.Scatter => new Scatter(socket),
        SocketType.Channel => new Channel(socket),
        SocketType.Peer => new Peer(socket),
        _ => throw new ArgumentOutOfRangeException(nameof(socketType)),
    };
}
