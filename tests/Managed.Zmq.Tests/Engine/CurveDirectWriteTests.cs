namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// Under CURVE a reply is encrypted and sent by the replying thread itself while the write loop is parked (the
/// direct write). Every reply must arrive whole and in order whichever path sends it: the direct write, the write
/// loop (a reply above the direct-write limit), or both (the kernel takes part of a direct write and the write loop
/// sends the rest of its ciphertext before anything sealed after it).
/// </summary>
public sealed class CurveDirectWriteTests
{
    private const int Timeout = 10_000;

    [Fact]
    public void Send_CurveRepliesOfManySizes_ArriveIntactInOrder()
    {
        using var context = new Context();
        using var rep = NewCurveServer(context, SocketType.Rep, out string serverPublic);
        using var req = NewCurveClient(context, SocketType.Req, serverPublic);
        req.Connect(rep.GetOptionString(SocketOption.Last_Endpoint));

        // Around the direct-write limit (16 KiB of queued frames) and the large-frame threshold, both ways.
        int[] sizes = [0, 1, 64, 1000, 8191, 16_000, 16_384, 16_500, 20_000, 40_000, 64, 0];
        using var request = new Message();
        using var reply = new Message();
        for (int round = 0; round < 3; round++)
        {
            for (int i = 0; i < sizes.Length; i++)
            {
                int size = sizes[i];
                int seed = round * 31 + i;
                req.Send(Pattern(size, seed), SendFlags.None);
                Assert.Equal(size, rep.Recv(request, RecvFlags.None));
                AssertPattern(request.Data, seed);

                int replySize = sizes[sizes.Length - 1 - i];
                rep.Send(Pattern(replySize, seed + 1), SendFlags.None);
                Assert.Equal(replySize, req.Recv(reply, RecvFlags.None));
                AssertPattern(reply.Data, seed + 1);
            }
        }
    }

    [Fact]
    public void Send_CurveReplyLargerThanTheKernelTakes_ArrivesWholeAndLaterMessagesFollow()
    {
        using var context = new Context();
        // Small kernel buffers at both ends, and a client that reads only after the reply was sent: the kernel
        // takes part of the encrypted reply, and the write loop has to send the rest.
        using var server = NewCurveServer(context, SocketType.Dealer, out string serverPublic, sendBuffer: 1024);
        using var client = NewCurveClient(context, SocketType.Dealer, serverPublic);
        client.SetOption(SocketOption.Rcvbuf, 1024);
        client.Connect(server.GetOptionString(SocketOption.Last_Endpoint));

        using var received = new Message();
        for (int round = 0; round < 5; round++)
        {
            client.Send(Pattern(10, round), SendFlags.None);
            Assert.Equal(10, server.Recv(received, RecvFlags.None));

            // The reply: two frames of 8,000 bytes (under the direct-write limit together), then a short message
            // sealed after them.
            server.Send(Pattern(8000, round + 100), SendFlags.SendMore);
            server.Send(Pattern(8000, round + 200), SendFlags.None);
            server.Send(Pattern(3, round + 300), SendFlags.None);

            Assert.Equal(8000, client.Recv(received, RecvFlags.None));
            Assert.True(received.More);
            AssertPattern(received.Data, round + 100);
            Assert.Equal(8000, client.Recv(received, RecvFlags.None));
            Assert.False(received.More);
            AssertPattern(received.Data, round + 200);
            Assert.Equal(3, client.Recv(received, RecvFlags.None));
            AssertPattern(received.Data, round + 300);
        }
    }

    /// <summary>A CURVE server bound to tcp; <paramref name="sendBuffer"/> is its Sndbuf, set before Bind as a listener's must be.</summary>
    private static Socket NewCurveServer(Context context, SocketType type, out string serverPublic, int sendBuffer = -1)
    {
        (serverPublic, string serverSecret) = Curve.GenerateKeypair();
        var socket = new Socket(context, type);
        SetCommon(socket);
        socket.SetOption(SocketOption.Sndbuf, sendBuffer);
        socket.SetOption(SocketOption.Curve_Server, 1);
        socket.SetOption(SocketOption.Curve_Publickey, serverPublic);
        socket.SetOption(SocketOption.Curve_Secretkey, serverSecret);
        socket.Bind("tcp://127.0.0.1:*");
        return socket;
    }

    private static Socket NewCurveClient(Context context, SocketType type, string serverPublic)
    {
        var (clientPublic, clientSecret) = Curve.GenerateKeypair();
        var socket = new Socket(context, type);
        SetCommon(socket);
        socket.SetOption(SocketOption.Curve_Serverkey, serverPublic);
        socket.SetOption(SocketOption.Curve_Publickey, clientPublic);
        socket.SetOption(SocketOption.Curve_Secretkey, clientSecret);
        return socket;
    }

    private static void SetCommon(Socket socket)
    {
        socket.SetOption(SocketOption.Linger, 0);
        socket.SetOption(SocketOption.Rcvtimeo, Timeout);
        socket.SetOption(SocketOption.Sndtimeo, Timeout);
    }

    private static byte[] Pattern(int size, int seed)
    {
        var bytes = new byte[size];
        for (int i = 0; i < size; i++)
        {
            bytes[i] = (byte)(i * 7 + seed);
        }

        return bytes;
    }

    private static void AssertPattern(ReadOnlySpan<byte> bytes, int seed)
    {
        for (int i = 0; i < bytes.Length; i++)
        {
            if (bytes[i] != (byte)(i * 7 + seed))
            {
                Assert.Fail($"byte {i} of {bytes.Length} is {bytes[i]}, expected {(byte)(i * 7 + seed)}");
            }
        }
    }
}
