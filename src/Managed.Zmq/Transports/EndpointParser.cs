namespace Managed.Zmq.Transports;

/// <summary>Splits <c>scheme://address</c> and maps schemes onto transports as libzmq does (as in Net.Zmq).</summary>
internal static class EndpointParser
{
    public static int TryParse(string endpoint, bool forBind, bool ipv6, out TransportAddress? address)
    {
        address = null;
        int separator = endpoint.IndexOf("://", StringComparison.Ordinal);
        if (separator <= 0)
        {
            return ZmqConstants.EINVAL;
        }

        string scheme = endpoint[..separator];
        string rest = endpoint[(separator + 3)..];
        switch (scheme)
        {
            case "tcp":
                int tcpError = TcpAddress.TryParse(endpoint, rest, forBind, ipv6, out var tcp);
                address = tcp;
                return tcpError;
            case "ipc":
                int ipcError = IpcAddress.TryParse(endpoint, rest, forBind, out var ipc);
                address = ipc;
                return ipcError;
            case "ws":
                int wsError = Ws.WsAddress.TryParse(endpoint, rest, forBind, ipv6, out var ws);
                address = ws;
                return wsError;
            case "wss":
                int wssError = Ws.WsAddress.TryParse(endpoint, rest, forBind, ipv6, out var wss, secure: true);
                address = wss;
                return wssError;
            case "udp":
                return ZmqConstants.ENOCOMPATPROTO;
            default:
                return ZmqConstants.EPROTONOSUPPORT;
        }
    }
}
