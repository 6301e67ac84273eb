using System.Buffers.Binary;
using Managed.Zmq.Wire;
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Engine;

internal sealed partial class ZmtpConnection
{
    /// <summary>
    /// STREAM sockets talk to raw TCP peers: no greeting, no handshake, no framing on the wire. Each
    /// chunk the OS hands us becomes one message in the pipe (framed there only so the socket reads
    /// it like any other); each queued frame's body goes out as raw bytes, and an empty frame asks
    /// for the connection to be closed.
    /// </summary>
    private async Task<DisconnectReason> RunRawAsync()
    {
        var pipe = _connectPipe ?? _host.CreatePipe(fromConnect: false, _endpoint);

        // libzmq's raw engine gives STREAM messages the peer address only.
        pipe.Metadata = new Wire.PeerMetadata { Properties = Security.PeerPropertyMerge.Merge(_transport.PeerAddress, null, Wire.PeerMetadata.Empty.Properties) };
        pipe.Inbound.DiscardUncommitted();
        _connection = DescribeConnection(pipe, null);
        pipe.Connection = _connection;
        Volatile.Write(ref _pipe, pipe);
        pipe.SetEngine(this);
        _host.OnPipeConnected(pipe, this);

        var writer = WriteRawLoopAsync(pipe);
        await ReadRawLoopAsync(pipe).ConfigureAwait(true);
        Close(DisconnectReason.ConnectionLost);
        await writer.ConfigureAwait(true);

        pipe.SetEngine(null);
        _transport.Dispose();
        _host.OnPipeDisconnected(pipe, this, _reason);
        _host.Monitor.ReportConnectionClosed(_endpoint, _transport.Handle);
        return _reason;
    }

    private async Task ReadRawLoopAsync(StreamPipe pipe)
    {
        var inbound = pipe.Inbound;
        try
        {
            while (!_closing)
            {
                if (pipe.ReceiveHwm > 0 && inbound.QueuedMessages >= pipe.ReceiveHwm && pipe.TryPauseReader())
                {
                    await _readerSignal.WaitAsync().ConfigureAwait(true);
                    continue;
                }

                // Room for a long frame header in front of whatever arrives.
                inbound.EnsureSpace(MinReceiveSpace + ZmtpFrame.MaxHeaderLength, inbound.WriteOffset);
                int headerAt = inbound.WriteOffset;
                var memory = inbound.WriteBuffer.AsMemory(headerAt + ZmtpFrame.MaxHeaderLength);
                int read = await _transport.ReceiveAsync(memory).ConfigureAwait(true);
                if (read <= 0)
                {
                    return;
                }

                var header = inbound.WriteBuffer.AsSpan(headerAt, ZmtpFrame.MaxHeaderLength);
                header[0] = (byte)ZmtpFrameFlags.Long;
                BinaryPrimitives.WriteUInt64BigEndian(header[1..], (ulong)read);
                inbound.Advance(ZmtpFrame.MaxHeaderLength + read);
                inbound.Commit(1);
                _host.Notify();
            }
        }
        catch (Exception ex) when (IsConnectionError(ex))
        {
            Close(DisconnectReason.ConnectionLost);
        }
    }

    private async Task WriteRawLoopAsync(StreamPipe pipe)
    {
        var outbound = pipe.Outbound;
        try
        {
            while (!_closing)
            {
                var batch = outbound.PeekMemory();
                if (batch.IsEmpty)
                {
                    if (!await AwaitOutboundAsync(pipe).ConfigureAwait(true))
                    {
                        return;
                    }

                    continue;
                }

                int queued = QueuedFrame.Read(batch.Span, out var frame, out bool external);
                if (external)
                {
                    var payload = pipe.PeekPayload();
                    await _transport.SendAsync(payload.Memory).ConfigureAwait(true);
                    pipe.TakePayload().Release();
                }
                else if (frame.BodyLength == 0)
                {
                    // An empty frame to a STREAM peer closes that connection (libzmq semantics).
                    outbound.Consume(queued);
                    outbound.MessagesConsumed(1);
                    Close(DisconnectReason.LocalClose);
                    return;
                }
                else
                {
                    await _transport.SendAsync(batch.Slice(frame.HeaderLength, (int)frame.BodyLength)).ConfigureAwait(true);
                }

                outbound.Consume(queued);
                outbound.MessagesConsumed(1);
                _host.Notify();
            }
        }
        catch (Exception ex) when (IsConnectionError(ex))
        {
            Close(DisconnectReason.ConnectionLost);
        }
    }
}
