using Managed.Zmq.Diagnostics;
using Managed.Zmq.Options;
using Managed.Zmq.Pipes;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Engine;

/// <summary>
/// The socket as a connection sees it: its settings, its monitor, and the calls by which a connection
/// attaches a pipe and reports its life. The socket core implements it; the engine names no socket
/// class, so dependencies run one way (socket → endpoints → engine).
/// </summary>
internal interface IConnectionHost
{
    SocketOptions Options { get; }

    /// <summary>Our socket type, announced in the handshake (RFC 23 Socket-Type, ZMTP 1.0/2.0 type octet).</summary>
    SocketType SocketType { get; }

    SocketMonitor Monitor { get; }

    /// <summary>
    /// True when connections carry raw bytes instead of ZMTP (STREAM, and ROUTER with Router_Raw).
    /// Read once when a connection starts, as libzmq fixes a session's options when it is created.
    /// </summary>
    bool IsRaw { get; }

    /// <summary>True when peers may subscribe (PUB, XPUB): SUBSCRIBE/CANCEL commands then count as messages.</summary>
    bool AcceptsSubscriptions { get; }

    /// <summary>Where a connection's handshake sends its ZAP requests (RFC 27).</summary>
    IZapEndpoint Zap { get; }

    StreamPipe CreatePipe(bool fromConnect, string endpoint, bool endsWithConnection = false);

    /// <summary>I/O thread: a handshake completed over <paramref name="pipe"/>.</summary>
    void OnPipeConnected(Pipe pipe, IConnection connection);

    /// <summary>I/O thread: the connection under <paramref name="pipe"/> ended.</summary>
    void OnPipeDisconnected(Pipe pipe, IConnection connection, DisconnectReason reason);

    /// <summary>Any thread: queues a pipe event for the socket's next call, and wakes it.</summary>
    void Enqueue(Pipe pipe, PipeEventKind kind);

    /// <summary>Any thread: wakes whoever waits on the socket (messages arrived, room to send).</summary>
    void Notify();

    /// <summary>An accepted connection starts: close and Unbind must reach it, even mid-handshake.</summary>
    /// <returns>false when the socket is already closed (the caller drops the connection).</returns>
    bool TrackConnection(IConnection connection);

    void UntrackConnection(IConnection connection);

    /// <summary>The context counts work in flight (connections, connecters) until it ends; Terminate waits for it.</summary>
    void BeginWork();

    void EndWork();
}
