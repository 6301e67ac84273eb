using System.Buffers.Binary;
using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;
using Managed.Zmq.InteropTests.Security;

namespace Managed.Zmq.InteropTests.Resilience;

/// <summary>
/// A raw peer sends a full NULL greeting, then a handshake command frame whose length the decoder refuses (beyond
/// MAXMSGSIZE, or with its top bit set). The events of libzmq's socket and of ours must be the same: DISCONNECTED,
/// and no handshake event before it, since the frame fails in the decoder, not in the mechanism
/// (docs/libzmq-behaviour.md L15).
/// </summary>
public sealed class HandshakeDecoderErrorInteropTests
{
    /// <summary>The events a monitor in a mixed cluster would tell apart.</summary>
    private static readonly int[] HandshakeEvents =
        [EventLog.HandshakeSucceeded, EventLog.HandshakeFailedProtocol, EventLog.HandshakeFailedAuth, EventLog.HandshakeFailedNoDetail];

    [Theory]
    [InlineData(0x8000000000000000UL, -1L)]
    [InlineData(0x4000000000000000UL, -1L)]
    [InlineData(101UL, 100L)]
    public Task Handshake_CommandFrameTheDecoderRefuses_EventsAsLibzmq(ulong length, long maxMessageSize) => Deadline.Run(() =>
    {
        int[] theirs;
        using (var side = SecuritySide.Theirs())
        {
            theirs = Observe(side, length, maxMessageSize);
        }

        int[] ours;
        using (var side = SecuritySide.Ours())
        {
            ours = Observe(side, length, maxMessageSize);
        }

        Assert.Empty(theirs);
        Assert.Equal(theirs, ours);
    });

    /// <summary>The handshake events the side's bound socket raises before DISCONNECTED.</summary>
    private static int[] Observe(SecuritySide side, ulong length, long maxMessageSize)
    {
        var pull = side.Socket(SocketType.Pull);
        pull.SetOption(LibZmq.ZMQ_LINGER, 0);
        if (maxMessageSize >= 0)
        {
            pull.SetOption(LibZmq.ZMQ_MAXMSGSIZE, BitConverter.GetBytes(maxMessageSize));
        }

        var events = side.Monitor(pull);
        using var raw = RawTcpPeer.Attach(pull, socketBinds: true);
        var header = new byte[9];
        header[0] = 0x06; // COMMAND and LONG (RFC 23 §Framing)
        BinaryPrimitives.WriteUInt64BigEndian(header.AsSpan(1), length);
        raw.Send([.. RawTcpPeer.NullGreeting, .. header]);

        var disconnected = events.WaitFor(EventLog.Disconnected);
        return [.. events.Snapshot().TakeWhile(e => e != disconnected).Select(e => e.Event).Where(HandshakeEvents.Contains)];
    }
}
