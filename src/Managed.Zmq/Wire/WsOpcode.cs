namespace Managed.Zmq.Wire;

/// <summary>WebSocket frame opcodes (RFC 6455 §5.2); ZWS 2.0 (RFC 45) carries ZMTP frames as binary messages.</summary>
internal enum WsOpcode : byte
{
    Continuation = 0x0,
    Text = 0x1,
    Binary = 0x2,
    Close = 0x8,
    Ping = 0x9,
    Pong = 0xA,
}
