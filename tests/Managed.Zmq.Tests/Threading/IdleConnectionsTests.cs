using System.Buffers.Binary;
using System.Net;
using System.Net.Sockets;
using System.Text;
using Managed.Zmq.Threading;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Tests.Threading;

/// <summary>
/// Many idle connections must not make one busy connection's wake-ups cost more: the idle ones are
/// parked, and the reactor's Select set holds only the busy ones.
/// </summary>
public class IdleConnectionsTests : TransportSockets
{
    private const int IdleConnections = 2000;
    private const int RoundTrips = 500;

    /// <summary>Idle connections that may stay in Select: the reactor parks only above this many readers.</summary>
    private const int MayStayHot = Tuning.Reactor.ParkAboveReaders;

    /// <summary>How many sockets may still be in Select once the idle ones are parked: those, the listener and the two ends of the busy connection, with room to spare.</summary>
    private const int SmallHotSet = MayStayHot + 8;

    [Fact(Timeout = 180_000)]
    public async Task RoundTrips_TwoThousandIdleHandshakenConnections_AllCompleteAndIdleOnesAreParked()
    {
        await Task.Yield();
        var rep = Create(SocketType.Rep);
        rep.Bind("tcp://127.0.0.1:0");
        string endpoint = rep.GetOptionString(SocketOption.Last_Endpoint);
        var port = int.Parse(endpoint[(endpoint.LastIndexOf(':') + 1)..], System.Globalization.CultureInfo.InvariantCulture);
        var thread = Context.NextIoThread();
        Assert.Equal(1, Context.IoThreadCount);

        var idle = new List<System.Net.Sockets.Socket>(IdleConnections);
        try
        {
            // Plain TCP peers that complete a NULL handshake as REQ, then say nothing.
            byte[] hello = NullHandshakeAsReq();
            for (int i = 0; i < IdleConnections; i++)
            {
                var peer = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp);
                idle.Add(peer);
                peer.Connect(new IPEndPoint(IPAddress.Loopback, port));
                peer.Send(hello);
            }

            Assert.True(
                SpinWait.SpinUntil(() => thread.ParkedCount >= IdleConnections - MayStayHot, TimeSpan.FromSeconds(120)),
                $"only {thread.ParkedCount} of {IdleConnections} idle connections were parked");

            var req = Create(SocketType.Req);
            req.Connect(endpoint);
            var server = Task.Factory.StartNew(
                () =>
                {
                    for (int i = 0; i < RoundTrips; i++)
                    {
                        rep.Send(rep.RecvBytes());
                    }
                },
                TaskCreationOptions.LongRunning);

            for (int i = 0; i < RoundTrips; i++)
            {
                string text = i.ToString(System.Globalization.CultureInfo.InvariantCulture);
                req.Send(text);
                Assert.Equal(text, req.RecvString());
            }

            await server.WaitAsync(TimeSpan.FromSeconds(60));
            Assert.InRange(thread.HotCount, 1, SmallHotSet);
            Assert.InRange(thread.LargestSelectSet, 1, Tuning.Reactor.MaxSelectSet);
            Assert.True(thread.ParkedCount >= IdleConnections - MayStayHot, "idle connections left the engine without input");
        }
        finally
        {
            foreach (var peer in idle)
            {
                peer.Dispose();
            }
        }
    }

    /// <summary>A ZMTP 3.0 greeting for NULL as client, then READY with Socket-Type REQ (RFC 23, RFC 37).</summary>
    private static byte[] NullHandshakeAsReq()
    {
        var greeting = new byte[64];
        greeting[0] = 0xFF;
        greeting[9] = 0x7F;
        greeting[10] = 3;
        Encoding.ASCII.GetBytes("NULL").CopyTo(greeting, 12);

        var body = new List<byte> { 5 };
        body.AddRange(Encoding.ASCII.GetBytes("READY"));
        body.Add(11);
        body.AddRange(Encoding.ASCII.GetBytes("Socket-Type"));
        var length = new byte[4];
        BinaryPrimitives.WriteInt32BigEndian(length, 3);
        body.AddRange(length);
        body.AddRange(Encoding.ASCII.GetBytes("REQ"));

        return [.. greeting, 0x04, (byte)body.Count, .. body];
    }
}
