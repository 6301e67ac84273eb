namespace Managed.Zmq.Patterns;

/// <summary>SERVER (RFC 41): <see cref="ServerRouting"/>'s rules, talking to CLIENT peers.</summary>
internal sealed class Server : ServerRouting
{
    public Server(IPatternHost socket)
        : base(socket)
    {
    }
}
