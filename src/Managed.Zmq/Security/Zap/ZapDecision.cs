using Managed.Zmq.Buffers;
using Managed.Zmq.Options;

namespace Managed.Zmq.Security.Zap;

/// <summary>A ZAP reply's status code, status text and user id (RFC 27 §Message Format).</summary>
internal readonly record struct ZapDecision(string StatusCode, string StatusText, string UserId)
{
    public static ZapDecision Accept(string userId) => new("200", "OK", userId);

    public static ZapDecision Deny(string reason) => new("400", reason, "");
}
