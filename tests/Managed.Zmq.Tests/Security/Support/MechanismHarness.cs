using System.Text;
using Managed.Zmq.Security;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Security.Support;

/// <summary>Drives two mechanisms against each other with no sockets, the way the engine will.</summary>
internal static class MechanismHarness
{
    /// <summary>A ZAP handler: request frames (after the delimiter) in, reply frames (delimiter included) out.</summary>
    public delegate IReadOnlyList<byte[]> ZapHandler(IReadOnlyList<byte[]> request);

    /// <summary>Takes the next command frame from <paramref name="mechanism"/> and returns its body, or null.</summary>
    public static byte[]? TakeCommandBody(IMechanism mechanism)
    {
        byte[]? frame = TakeCommandFrame(mechanism);
        if (frame is null)
        {
            return null;
        }

        Assert.Equal(ZmtpStatus.Done, ZmtpFrame.TryReadFrame(frame, out ZmtpFrameHeader header, out ReadOnlySpan<byte> body));
        Assert.Equal(ZmtpFrameFlags.Command, header.Flags & ZmtpFrameFlags.Command);
        return body.ToArray();
    }

    /// <summary>Takes the next whole command frame, or null.</summary>
    public static byte[]? TakeCommandFrame(IMechanism mechanism)
    {
        Assert.Equal(-1, mechanism.MaxCommandLength == 0 ? -1 : mechanism.WriteNextCommand(Span<byte>.Empty));
        var buffer = new byte[Math.Max(mechanism.MaxCommandLength, 1)];
        int written = mechanism.WriteNextCommand(buffer);
        Assert.True(written >= 0);
        return written == 0 ? null : buffer[..written];
    }

    /// <summary>Exchanges commands (and ZAP round trips) until neither side has anything left to do.</summary>
    /// <param name="client">The client (speaks first for PLAIN and CURVE).</param>
    /// <param name="server">The server.</param>
    /// <param name="zap">The handler both sides' ZAP requests go to, or null.</param>
    /// <param name="tamper">Optional hook that may rewrite any command body in flight.</param>
    public static void Run(IMechanism client, IMechanism server, ZapHandler? zap = null, Func<string, byte[], byte[]>? tamper = null)
    {
        for (int step = 0; step < 50; step++)
        {
            bool progress = Pump(client, server, zap, tamper, "client") | Pump(server, client, zap, tamper, "server");
            if (!progress)
            {
                return;
            }
        }

        Assert.Fail("The handshake did not settle.");
    }

    /// <summary>A well-formed ZAP reply (RFC 27), the empty delimiter first.</summary>
    public static byte[][] Reply(string status, string userId = "", byte[]? metadata = null) =>
    [
        [],
        "1.0"u8.ToArray(),
        "1"u8.ToArray(),
        Encoding.ASCII.GetBytes(status),
        Encoding.ASCII.GetBytes(status == "200" ? "OK" : "No"),
        Encoding.UTF8.GetBytes(userId),
        metadata ?? [],
    ];

    /// <summary>Settings for tests, with the given mechanism and role.</summary>
    public static MechanismSettings Settings(SocketType type, ZmtpMechanism mechanism = ZmtpMechanism.Null, bool asServer = false) =>
        new() { SocketType = type, Mechanism = mechanism, AsServer = asServer, PeerAddress = "127.0.0.1" };

    private static bool Pump(IMechanism from, IMechanism to, ZapHandler? zap, Func<string, byte[], byte[]>? tamper, string side)
    {
        bool progress = false;
        if (from.Status == MechanismStatus.WaitingForZap && zap is not null)
        {
            IReadOnlyList<byte[]>? request = from.TakeZapRequest();
            if (request is not null)
            {
                from.ProcessZapReply(zap(request));
                progress = true;
            }
        }

        byte[]? body;
        while ((body = TakeCommandBody(from)) is not null)
        {
            progress = true;
            if (tamper is not null)
            {
                body = tamper(side, body);
            }

            if (to.Status is MechanismStatus.Handshaking or MechanismStatus.WaitingForZap)
            {
                to.ProcessCommand(body);
            }
        }

        return progress;
    }
}
