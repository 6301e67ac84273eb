using System.Globalization;

namespace Managed.Zmq.Transports;

/// <summary>
/// The <c>host:port</c> part of a tcp:// or udp:// endpoint, split as libzmq splits it: at the last colon, with a
/// port of 1 to 65535 (or 0 and <c>*</c>, an ephemeral one, when binding) and an IPv6 host in brackets.
/// </summary>
internal static class HostPortText
{
    /// <summary>Splits <paramref name="text"/>; returns 0, or EINVAL when it is no <c>host:port</c>.</summary>
    /// <param name="text">The endpoint after the scheme (and any source address).</param>
    /// <param name="forBind">Whether the endpoint is bound: only then may the port be <c>*</c> or 0.</param>
    /// <param name="host">The host, without the brackets of an IPv6 literal; may be empty (each caller decides what that means).</param>
    /// <param name="port">The port; 0 for an ephemeral one.</param>
    public static int TrySplit(string text, bool forBind, out string host, out int port)
    {
        host = string.Empty;
        port = 0;
        int colon = text.LastIndexOf(':');
        if (colon < 0 || colon == text.Length - 1)
        {
            return ZmqConstants.EINVAL;
        }

        string portText = text[(colon + 1)..];
        if (portText == "*")
        {
            if (!forBind)
            {
                return ZmqConstants.EINVAL;
            }
        }
        else if (!int.TryParse(portText, NumberStyles.None, CultureInfo.InvariantCulture, out port) || port > ushort.MaxValue || (!forBind && port == 0))
        {
            return ZmqConstants.EINVAL;
        }

        host = text[..colon];
        if (host.StartsWith('[') && host.EndsWith(']'))
        {
            host = host[1..^1];
        }

        return 0;
    }
}
