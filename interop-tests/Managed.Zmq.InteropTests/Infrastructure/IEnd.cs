namespace Managed.Zmq.InteropTests.Infrastructure;

/// <summary>
/// One end of an interop link: either a Managed.Zmq socket or a libzmq socket. Scenarios are
/// written once against this interface, so the same code drives both sides in both roles.
/// Options use libzmq's numbering (LibZmq.ZMQ_*), which SocketOption shares.
/// </summary>
internal interface IEnd : IDisposable
{
    /// <summary>"Managed.Zmq PUSH" or "libzmq PULL", for assertion messages.</summary>
    string Name { get; }

    SocketType Type { get; }

    /// <summary>Binds and returns the endpoint Last_Endpoint reports.</summary>
    string Bind(string endpoint);

    /// <summary>Binds to <c>tcp://127.0.0.1:*</c> and returns the real endpoint from Last_Endpoint.</summary>
    string BindEphemeral() => Bind("tcp://127.0.0.1:*");

    void Connect(string endpoint);

    void SetOption(int option, int value);

    void SetOption(int option, byte[] value);

    void Subscribe(byte[] topic);

    void Unsubscribe(byte[] topic);

    /// <summary>Sends all frames as one message (MORE on all but the last); blocks up to the send timeout.</summary>
    void SendMessage(params byte[][] frames);

    /// <summary>
    /// Sends without waiting. Returns false when the socket cannot take the message now:
    /// EAGAIN, or EHOSTUNREACH from a ROUTER with ROUTER_MANDATORY whose peer is not known yet.
    /// </summary>
    bool TrySendMessage(params byte[][] frames);

    /// <summary>Receives one whole message; throws if nothing arrives within the end's receive timeout.</summary>
    byte[][] RecvMessage();

    /// <summary>Receives one whole message, or returns null if nothing arrives within <paramref name="timeout"/>.</summary>
    byte[][]? TryRecvMessage(TimeSpan timeout);
}

internal static class Messages
{
    /// <summary>
    /// A message has at least one frame. Guards against <c>SendMessage([])</c>, which C# binds to an
    /// empty frame array, not to one empty frame (write <c>SendMessage([[]])</c> for that).
    /// </summary>
    public static void RequireFrames(byte[][] frames)
    {
        if (frames.Length == 0)
            throw new ArgumentException("A message needs at least one frame; use [[]] for one empty frame.", nameof(frames));
    }
}
