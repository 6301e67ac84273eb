using NetSocket = System.Net.Sockets.Socket;
using System.Net;
using System.Net.Sockets;
using Managed.Zmq.Diagnostics;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Transports.Udp;

/// <summary>The receive loop: each datagram becomes a group frame and a body frame in the DISH's pipe.</summary>
internal sealed partial class UdpEngine
{
    private async Task ReceiveLoopAsync()
    {
        var buffer = new byte[UdpDatagram.MaxSize];
        var from = new SocketAddress(_socket.AddressFamily);
        try
        {
            while (!IsClosed)
            {
                int received;
                try
                {
                    received = await _socket.ReceiveFromAsync(buffer, SocketFlags.None, from).ConfigureAwait(false);
                }
                catch (SocketException) when (!IsClosed)
                {
                    // A datagram that could not be received (an ICMP error reported on the socket): the next one may.
                    continue;
                }

                bool delivered = Deliver(buffer.AsSpan(0, received));

                // Whatever else the kernel holds is taken now, without waiting, and announced once.
                while (!IsClosed && _socket.Available > 0)
                {
                    try
                    {
                        received = _socket.ReceiveFrom(buffer, SocketFlags.None, from);
                    }
                    catch (SocketException) when (!IsClosed)
                    {
                        break;
                    }

                    delivered |= Deliver(buffer.AsSpan(0, received));
                }

                if (delivered)
                {
                    _host.Notify();
                }
            }
        }
        catch (Exception ex) when (IsClosed && ex is ObjectDisposedException or SocketException)
        {
            // Closed while waiting for a datagram.
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

    /// <summary>Queues one datagram as its two frames; drops it (false) when malformed or when the pipe is at RCVHWM.</summary>
    private bool Deliver(ReadOnlySpan<byte> datagram)
    {
        if (!UdpDatagram.TryRead(datagram, out var group, out var body))
        {
            return false;
        }

        var inbound = _pipe.Inbound;
        int hwm = _pipe.ReceiveHwm;
        if (hwm > 0 && inbound.QueuedMessages >= hwm)
        {
            // libzmq stops reading at the HWM and the kernel drops what follows; dropping here loses the same.
            return false;
        }

        var span = inbound.GetSpan(QueuedFrame.GetLength(group.Length) + QueuedFrame.GetLength(body.Length));
        int written = QueuedFrame.Write(span, group, more: true);
        written += QueuedFrame.Write(span[written..], body, more: false);
        inbound.Advance(written);
        inbound.Commit(1);
        return true;
    }
}
