using NetSocket = System.Net.Sockets.Socket;
using System.Net.Sockets;
using Managed.Zmq.Buffers;
using Managed.Zmq.Diagnostics;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Transports.Udp;

/// <summary>The write loop: one datagram per RADIO message, or the DISH's outbound commands dropped.</summary>
internal sealed partial class UdpEngine
{
    /// <summary>The datagram being assembled: the length octet and group, then the body.</summary>
    private readonly byte[] _datagram = new byte[UdpDatagram.MaxSize];

    /// <summary>Octets of <see cref="_datagram"/> written so far (the group part); -1 when the message is dropped.</summary>
    private int _assembled;

    private async Task WriteLoopAsync()
    {
        var outbound = _pipe.Outbound;
        try
        {
            while (!IsClosed)
            {
                var batch = outbound.PeekMemory();
                if (batch.IsEmpty)
                {
                    if (_closeWhenDrained)
                    {
                        Close();
                        return;
                    }

                    if (_pipe.TryParkWriter())
                    {
                        await _writerSignal.WaitAsync().ConfigureAwait(false);
                        Volatile.Write(ref _wakePending, 0);
                        if (IsClosed)
                        {
                            return;
                        }

                        _pipe.ClaimWriter();
                    }

                    continue;
                }

                int length = TakeFrame(batch.Span);
                if (length > 0)
                {
                    try
                    {
                        // A udp send does not wait for the peer: the kernel queues the datagram or drops it, so the
                        // plain call costs less than an asynchronous one per datagram.
                        _socket.SendTo(_datagram.AsSpan(0, length), SocketFlags.None, _target!);
                    }
                    catch (SocketException)
                    {
                        // udp loses datagrams: a full send buffer or an unreachable host costs this one only (libzmq
                        // goes on after EWOULDBLOCK too).
                    }
                }
            }
        }
        catch (ObjectDisposedException) when (IsClosed)
        {
            // Closed while a datagram was going out.
        }
        catch (Exception ex)
        {
            InternalErrors.Report(ex);
            Close();
        }
        finally
        {
            LoopEnded();
        }
    }

    /// <summary>
    /// Consumes the next queued frame into <see cref="_datagram"/>; returns the datagram's length once a message is
    /// complete and fits, else 0.
    /// </summary>
    private int TakeFrame(ReadOnlySpan<byte> frames)
    {
        var frame = QueuedFrame.Decode(frames);
        OutboundPayload? payload = frame.IsExternal ? _pipe.TakePayload() : null;
        var body = payload is null ? frames.Slice(frame.HeaderLength, frame.BodyLength) : payload.Span;
        int datagram = 0;
        if (!frame.IsCommand && _sends)
        {
            datagram = Assemble(body, frame.More);
        }

        payload?.Release();
        var outbound = _pipe.Outbound;
        outbound.Consume(frame.QueuedLength);
        if (!frame.IsCommand)
        {
            // JOIN and LEAVE travel outside the message count; a DISH's are dropped here, as libzmq's udp engine drops them.
            _pipe.OutboundMidMessage = frame.More;
            if (!frame.More)
            {
                outbound.MessagesConsumed(1);
                if (_pipe.OutboundAtLowWater)
                {
                    _host.Notify();
                }
            }
        }

        return datagram;
    }

    /// <summary>Adds a frame of a RADIO message (group, then body); the datagram's length when it is complete and fits.</summary>
    private int Assemble(ReadOnlySpan<byte> body, bool more)
    {
        if (!_pipe.OutboundMidMessage)
        {
            // The group frame: a RADIO always sends one, with MORE, before the body.
            _assembled = more && UdpDatagram.GetLength(body.Length, 0) > 0 ? UdpDatagram.WriteGroup(_datagram, body) : -1;
            return 0;
        }

        if (more || _assembled < 0 || UdpDatagram.GetLength(_assembled - 1, body.Length) < 0)
        {
            // Not one group and one body, or too large for a datagram: the message is not sent.
            _assembled = -1;
            return 0;
        }

        body.CopyTo(_datagram.AsSpan(_assembled));
        return _assembled + body.Length;
    }
}
