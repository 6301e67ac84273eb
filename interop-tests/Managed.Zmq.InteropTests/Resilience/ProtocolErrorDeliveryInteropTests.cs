using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;
using Managed.Zmq.InteropTests.Security;

namespace Managed.Zmq.InteropTests.Resilience;

/// <summary>
/// A peer that sends a message and then breaks the protocol (a frame whose length has its top bit set): the same raw
/// peer against libzmq's PULL and against ours, bound and connecting. The connection ends, and the message that came
/// before the error is still delivered, as libzmq delivers it (docs/libzmq-behaviour.md L15).
/// </summary>
public sealed class ProtocolErrorDeliveryInteropTests
{
    /// <summary>READY with Socket-Type PUSH, as a short command frame (RFC 23, RFC 27).</summary>
    private static readonly byte[] Ready =
        [0x04, 26, 5, .. "READY"u8, 11, .. "Socket-Type"u8, 0, 0, 0, 4, .. "PUSH"u8];

    /// <summary>A long frame header whose length has its top bit set: a protocol error (RFC 23 §Framing).</summary>
    private static readonly byte[] MalformedHeader = [0x02, 0x80, 0, 0, 0, 0, 0, 0, 0];

    private const string Closed = "the socket closed during the handshake";

    [Theory]
    [InlineData(true, 10)]
    [InlineData(true, 64 * 1024)]
    [InlineData(false, 10)]
    [InlineData(false, 64 * 1024)]
    public Task Recv_MessageThenMalformedFrame_MessageDeliveredAsLibzmq(bool socketBinds, int size) => Deadline.Run(() =>
    {
        using (var side = SecuritySide.Theirs())
        {
            Observe(side, socketBinds, size);
        }

        using (var side = SecuritySide.Ours())
        {
            Observe(side, socketBinds, size);
        }
    });

    private static void Observe(SecuritySide side, bool socketBinds, int size)
    {
        var socket = side.Socket(SocketType.Pull);
        socket.SetOption(LibZmq.ZMQ_LINGER, 0);
        var raw = RawTcpPeer.Attach(socket, socketBinds);
        using (raw)
        {
            raw.Send(RawTcpPeer.NullGreeting);
            raw.Send(Ready);

            // The socket's greeting, then its READY: a short command frame.
            RawTcpPeer.ReadExactly(raw, RawTcpPeer.NullGreeting.Length, Closed);
            byte[] readyHeader = RawTcpPeer.ReadExactly(raw, 2, Closed);
            RawTcpPeer.ReadExactly(raw, readyHeader[1], Closed);

            byte[] body = Bytes.Pattern(size);

            byte[] header = [0x02, .. BitConverter.GetBytes((ulong)size).Reverse()];
            raw.Send([.. header, .. body, .. MalformedHeader]);

            var message = socket.TryRecvMessage(Timeouts.Io);
            Assert.NotNull(message);
            Assert.Equal(body, Assert.Single(message));
        }
    }
}
