using System.Buffers.Binary;
using System.Diagnostics;

namespace Managed.Zmq.Soak;

/// <summary>
/// PUSH sends numbered messages to a PULL that is closed (LINGER 0) and rebound on the same port
/// every few seconds. ZeroMQ allows losing what the dying PULL had queued, and what was in flight
/// on the dropped connection; it never allows a duplicate or a reordering.
/// </summary>
internal static class PipelineSoak
{
    public static PipelineReport Run(TimeSpan duration, TimeSpan restartEvery)
    {
        using var context = new Context();
        int port = FreePort.Next();
        string endpoint = $"tcp://127.0.0.1:{port}";
        long sent = 0, received = 0, lost = 0, duplicated = 0, restarts = 0;
        long lastSeen = -1;
        var clock = Stopwatch.StartNew();

        Exception? senderFailure = null;
        var sender = new Thread(() =>
        {
            try
            {
                SendUntilDone();
            }
            catch (Exception ex)
            {
                senderFailure = ex;
            }
        });

        void SendUntilDone()
        {
            using var push = new Socket(context, SocketType.Push);
            push.SetOption(SocketOption.Linger, 0);
            push.SetOption(SocketOption.Sndtimeo, 100);
            push.SetOption(SocketOption.Reconnect_Ivl, 10);
            push.Connect(endpoint);
            Span<byte> payload = stackalloc byte[64];
            while (clock.Elapsed < duration)
            {
                BinaryPrimitives.WriteInt64LittleEndian(payload, sent);
                try
                {
                    if (push.Send(payload))
                    {
                        sent++;
                    }
                }
                catch (ZmqException ex) when (ex.ErrorCode == ErrorCode.EAGAIN)
                {
                    // No connection right now (the PULL is restarting): try again.
                }
            }
        }

        sender.Start();

        var buffer = new byte[64];
        Exception? receiverFailure = null;
        while (clock.Elapsed < duration && receiverFailure is null)
        {
            using var pull = new Socket(context, SocketType.Pull);
            pull.SetOption(SocketOption.Linger, 0);
            pull.SetOption(SocketOption.Rcvtimeo, 100);
            try
            {
                pull.Bind(endpoint);
            }
            catch (ZmqException ex)
            {
                receiverFailure = ex;
                break;
            }

            var generation = Stopwatch.StartNew();
            while (generation.Elapsed < restartEvery && clock.Elapsed < duration)
            {
                if (TryReceive(pull, buffer) < 0)
                {
                    continue;
                }

                long sequence = BinaryPrimitives.ReadInt64LittleEndian(buffer);
                received++;
                if (sequence <= lastSeen)
                {
                    duplicated++;
                }
                else
                {
                    lost += sequence - lastSeen - 1;
                    lastSeen = sequence;
                }
            }

            restarts++;
        }

        sender.Join();
        if (senderFailure is not null || receiverFailure is not null)
        {
            Console.WriteLine($"PUSH/PULL soak stopped early: sender {senderFailure?.Message ?? "ok"}, receiver {receiverFailure?.Message ?? "ok"} at {clock.Elapsed}");
        }

        return new PipelineReport(sent, received, lost, duplicated, restarts - 1);
    }

    private static int TryReceive(Socket socket, byte[] buffer)
    {
        try
        {
            return socket.Recv(buffer);
        }
        catch (ZmqException ex) when (ex.ErrorCode == ErrorCode.EAGAIN)
        {
            return -1;
        }
    }
}
