namespace Managed.Zmq.NetworkTests.Harness;

/// <summary>The libzmq option numbers the scenarios set, the same on both kinds of node.</summary>
internal enum ZmqOption
{
    RoutingId = 5,
    Subscribe = 6,
    Linger = 17,
    ReconnectIvl = 18,
    SndHwm = 23,
    RcvHwm = 24,
    SndTimeo = 28,
    TcpKeepalive = 34,
    TcpKeepaliveCnt = 35,
    TcpKeepaliveIdle = 36,
    TcpKeepaliveIntvl = 37,
    Immediate = 39,
    CurveServer = 47,
    CurvePublicKey = 48,
    CurveSecretKey = 49,
    CurveServerKey = 50,
    ReqCorrelate = 52,
    ReqRelaxed = 53,
    RouterHandover = 56,
    HeartbeatIvl = 75,
    HeartbeatTtl = 76,
    HeartbeatTimeout = 77,
    ConnectTimeout = 79,
    TcpMaxrt = 80,
}
