using Managed.Zmq.Patterns;

namespace Managed.Zmq.Core;

internal sealed partial class SocketCore
{
    /// <summary>Spin iterations before parking: a reply or HWM room usually comes within microseconds.</summary>
    private const int SpinIterations = 40;

    /// <summary>
    /// Sends one frame, waiting (spin briefly, then park) while the pattern would block, up to
    /// SNDTIMEO. Only a message's first frame can wait (API §8.3).
    /// </summary>
    public SendStatus Send(ReadOnlySpan<byte> frame, bool more, bool dontWait)
    {
        if (_closed)
        {
            return SendStatus.Closed;
        }

        ProcessEvents();
        if (_terminated)
        {
            return SendStatus.Terminated;
        }

        var status = Pattern.Send(frame, more);
        if (status != SendStatus.WouldBlock || dontWait)
        {
            return status;
        }

        int timeout = Options.SendTimeout;
        if (timeout == 0)
        {
            return status;
        }

        long deadline = timeout < 0 ? long.MaxValue : Environment.TickCount64 + timeout;
        var spinner = default(SpinWait);
        for (int i = 0; i < SpinIterations; i++)
        {
            spinner.SpinOnce(sleep1Threshold: -1);
            ProcessEvents();
            status = Pattern.Send(frame, more);
            if (status != SendStatus.WouldBlock)
            {
                return status;
            }
        }

        while (true)
        {
            int sequence = Signal.BeginWait();
            try
            {
                ProcessEvents();
                if (_closed)
                {
                    return SendStatus.Closed;
                }

                if (_terminated)
                {
                    return SendStatus.Terminated;
                }

                status = Pattern.Send(frame, more);
                if (status != SendStatus.WouldBlock)
                {
                    return status;
                }

                if (!Signal.Wait(sequence, deadline))
                {
                    return SendStatus.WouldBlock;
                }
            }
            finally
            {
                Signal.EndWait();
            }
        }
    }

    /// <summary>Receives one frame into <paramref name="sink"/>, waiting up to RCVTIMEO.</summary>
    public RecvStatus Recv<TSink>(ref TSink sink, bool dontWait)
        where TSink : IFrameSink, allows ref struct
    {
        if (_closed)
        {
            return RecvStatus.Closed;
        }

        ProcessEvents();
        if (_terminated)
        {
            return RecvStatus.Terminated;
        }

        var status = Pattern.Recv(ref sink);
        if (status != RecvStatus.WouldBlock || dontWait)
        {
            return status;
        }

        int timeout = Options.ReceiveTimeout;
        if (timeout == 0)
        {
            return status;
        }

        long deadline = timeout < 0 ? long.MaxValue : Environment.TickCount64 + timeout;
        var spinner = default(SpinWait);
        for (int i = 0; i < SpinIterations; i++)
        {
            spinner.SpinOnce(sleep1Threshold: -1);
            ProcessEvents();
            status = Pattern.Recv(ref sink);
            if (status != RecvStatus.WouldBlock)
            {
                return status;
            }
        }

        while (true)
        {
            int sequence = Signal.BeginWait();
            try
            {
                ProcessEvents();
                if (_closed)
                {
                    return RecvStatus.Closed;
                }

                if (_terminated)
                {
                    return RecvStatus.Terminated;
                }

                status = Pattern.Recv(ref sink);
                if (status != RecvStatus.WouldBlock)
                {
                    return status;
                }

                if (!Signal.Wait(sequence, deadline))
                {
                    return RecvStatus.WouldBlock;
                }
            }
            finally
            {
                Signal.EndWait();
            }
        }
    }

    /// <summary>ZMQ_EVENTS: POLLIN (1) and POLLOUT (2) as they stand now.</summary>
    public int Events
    {
        get
        {
            ProcessEvents();
            if (_terminated)
            {
                return 0;
            }

            return (Pattern.CanReceive ? 1 : 0) | (Pattern.CanSend ? 2 : 0);
        }
    }
}
