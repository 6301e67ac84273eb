namespace Managed.Zmq.Perf;

/// <summary>
/// What the throughput modes send and receive, from <c>PERF_BUFFER</c>:
/// <list type="bullet">
/// <item><c>span</c> (the default): one <c>byte[]</c> sent as a span and received into a span,
/// so each side copies the payload once, the plain-array path most callers use;</item>
/// <item><c>message</c>: libzmq's own perf tools line for line. They keep one <c>zmq_msg_t</c> per
/// side: remote_thr re-initialises it for every send (<c>zmq_msg_init_size</c> + <c>zmq_sendmsg</c>),
/// here <see cref="Message.Rebuild(int)"/> + Send on one Message; local_thr receives into it
/// (<c>zmq_recvmsg</c>), here Recv into one Message. The payload is never filled or copied by the
/// caller at either end;</item>
/// <item><c>pool</c>: a <see cref="MessagePool.Shared"/> rent per send, one Message to receive into.</item>
/// </list>
/// </summary>
internal enum PerfBufferMode
{
    Span,
    Message,
    Pool,
}

internal static class PerfBuffer
{
    /// <summary>Sends <paramref name="count"/> messages of <paramref name="size"/> bytes the way <see cref="Mode"/> says.</summary>
    public static void SendAll(Socket socket, int size, int count)
    {
        switch (Mode)
        {
            case PerfBufferMode.Message:
            {
                // libzmq's remote_thr: one zmq_msg_t, zmq_msg_init_size + zmq_sendmsg per message.
                using var message = new Message();
                for (int i = 0; i != count; i++)
                {
                    message.Rebuild(size);
                    socket.Send(message, SendFlags.None);
                }

                break;
            }

            case PerfBufferMode.Pool:
                for (int i = 0; i != count; i++)
                {
                    using var message = MessagePool.Shared.Rent(size);
                    socket.Send(message, SendFlags.None);
                }

                break;
            default:
                ReadOnlySpan<byte> payload = new byte[size];
                for (int i = 0; i != count; i++)
                {
                    socket.Send(payload, SendFlags.None);
                }

                break;
        }
    }

    /// <summary>A receive loop's destination: one Message (libzmq's local_thr: one zmq_msg_t), or one array for spans.</summary>
    public static Func<Socket, int> CreateReceiver(int size)
    {
        if (Mode == PerfBufferMode.Span)
        {
            // One extra byte so a longer frame is detected rather than silently equal.
            byte[] buffer = new byte[size + 1];
            return socket => socket.Recv(buffer.AsSpan(), RecvFlags.None);
        }

        var message = new Message();
        return socket => socket.Recv(message, RecvFlags.None);
    }

    public static PerfBufferMode Mode { get; } = Environment.GetEnvironmentVariable("PERF_BUFFER")?.ToLowerInvariant() switch
    {
        null or "" or "span" => PerfBufferMode.Span,
        "message" => PerfBufferMode.Message,
        "pool" => PerfBufferMode.Pool,
        var other => throw new ArgumentException($"PERF_BUFFER={other}: expected span, message or pool"),
    };
}
