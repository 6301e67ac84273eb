using System.Buffers.Binary;
using System.Security.Cryptography;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Transports.Ws;

/// <summary>Control frames (pong, close echo) the receive side queues, sent between data frames.</summary>
internal sealed partial class WsTransport
{
    public long KeepAlivesReceived => _keepAlivesReceived;

    /// <summary>An empty ping, as libzmq's ws engine heartbeats: the engine's own PING cannot be read by it under CURVE.</summary>
    public bool TrySendPing()
    {
        if (!_upgraded || _peerClosed)
        {
            return false;
        }

        QueueControl(WsOpcode.Ping, default);
        return true;
    }

    /// <summary>Queues a ping, pong or close for the wire; sends it now when no data frame is half written.</summary>
    private void QueueControl(WsOpcode opcode, ReadOnlySpan<byte> payload)
    {
        int length = WsFrame.GetHeaderLength(payload.Length, _client) + payload.Length;
        if (_control.Length - _controlLength < length)
        {
            // A flood of pings: RFC 6455 §5.5.3 allows answering only the latest.
            return;
        }

        uint key = _client ? NextMaskKey() : 0;
        int written = WsFrame.WriteHeader(_control.AsSpan(_controlLength), opcode, payload.Length, _client, key);
        var target = _control.AsSpan(_controlLength + written, payload.Length);
        payload.CopyTo(target);
        if (_client)
        {
            WsFrame.Mask(target, key, 0);
        }

        _controlLength += written + payload.Length;
        SendQueuedControlIfIdle();
    }

    /// <summary>Starts sending queued control frames when no send is under way and no data frame is half written.</summary>
    private void SendQueuedControlIfIdle()
    {
        if (_controlSend is { IsCompleted: true } done)
        {
            // Its failure, if any, also ends the receive side; nothing more to learn from it.
            _ = done.Exception;
            _controlSend = null;
        }

        if (_controlLength > 0 && !_inSend && _controlSend is null && _frameHeadFill == 0 && _outBodyLeft == 0 && _upgraded)
        {
            _controlSend = SendControlAsync();
        }
    }

    private async Task SendControlAsync()
    {
        while (_controlLength > 0 && !_inSend)
        {
            byte[] frames = _control.AsSpan(0, _controlLength).ToArray();
            _controlLength = 0;
            await _inner.SendAsync(frames).ConfigureAwait(true);
        }
    }

    /// <summary>At a frame boundary inside a send: moves queued control frames into the send buffer.</summary>
    private void AppendQueuedControl()
    {
        // Never inside a data frame: a control frame may only come between frames (RFC 6455 §5.4).
        if (_controlLength == 0 || _frameHeadFill != 0 || _outBodyLeft != 0 || _out.Length - _outLength < _controlLength)
        {
            return;
        }

        _control.AsSpan(0, _controlLength).CopyTo(_out.AsSpan(_outLength));
        _outLength += _controlLength;
        _controlLength = 0;
    }
}
