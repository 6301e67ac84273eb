using System.Buffers.Binary;
using System.Diagnostics;

namespace Managed.Zmq.Soak;

/// <summary>
/// REQ/REP with the REP restarting every few seconds. The REQ follows the "lazy pirate" recipe: on
/// a reply timeout it closes its socket, opens a new one and sends the same request again. Every
/// reply must carry the number of the request it answers.
/// </summary>
internal static class RequestReplySoak
{
    public static RequestReplyReport Run(TimeSpan duration, TimeSpan restartEvery)
    {
        using var context = new Context();
        int port = FreePort.Next();
        string endpoint = $"tcp://127.0.0.1:{port}";
        long completed = 0, retries = 0, mismatched = 0, restarts = 0;
        var clock = Stopwatch.StartNew();
        var stop = new CancellationTokenSource();

        var server = new Thread(() =>
        {
            var buffer = new byte[64];
            while (!stop.IsCancellationRequested)
            {
                using var rep = new Socket(context, SocketType.Rep);
                rep.SetOption(SocketOption.Linger, 0);
                rep.SetOption(SocketOption.Rcvtimeo, 100);
                rep.Bind(endpoint);
                var generation = Stopwatch.StartNew();
                while (generation.Elapsed < restartEvery && !stop.IsCancellationRequested)
                {
                    int size;
                    try
                    {
                        size = rep.Recv(buffer);
                    }
                    catch (ZmqException ex) when (ex.ErrorCode == ErrorCode.EAGAIN)
                    {
                        continue;
                    }

                    rep.Send(buffer.AsSpan(0, size));
                }

                Interlocked.Increment(ref restarts);
            }
        });
        server.Start();

        Socket NewRequester()
        {
            var req = new Socket(context, SocketType.Req);
            req.SetOption(SocketOption.Linger, 0);
            req.SetOption(SocketOption.Rcvtimeo, 250);
            req.Connect(endpoint);
            return req;
        }

        var requester = NewRequester();
        var request = new byte[64];
        var reply = new byte[64];
        long sequence = 0;
        while (clock.Elapsed < duration)
        {
            BinaryPrimitives.WriteInt64LittleEndian(request, sequence);
            requester.Send(request);
            try
            {
                requester.Recv(reply);
            }
            catch (ZmqException ex) when (ex.ErrorCode == ErrorCode.EAGAIN)
            {
                // The REP went away with our request: a new socket, the same request again.
                requester.Dispose();
                requester = NewRequester();
                retries++;
                continue;
            }

            if (BinaryPrimitives.ReadInt64LittleEndian(reply) != sequence)
            {
                mismatched++;
            }

            completed++;
            sequence++;
        }

        requester.Dispose();
        stop.Cancel();
        server.Join();
        return new RequestReplyReport(completed, retries, mismatched, Interlocked.Read(ref restarts) - 1);
    }
}
