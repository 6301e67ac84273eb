using Managed.Zmq.Core;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Patterns;

/// <summary>
/// Fair-queued receive over several pipes (RFC 28 §The DEALER Socket Type, RFC 30 §The PULL Socket
/// Type): whole messages are taken from the pipes in turn, and the frames of one message are never
/// interleaved with another's.
/// </summary>
internal sealed class FairQueue
{
    private readonly List<Pipe> _pipes = [];
    private int _current;

    /// <summary>The pipe whose message is half read; its next frame must come next.</summary>
    private Pipe? _inMessage;

    /// <param name="surfaceSubscriptions">XPUB/PUB: SUBSCRIBE and CANCEL commands are returned instead of skipped.</param>
    public FairQueue(bool surfaceSubscriptions = false)
    {
        SurfaceSubscriptions = surfaceSubscriptions;
    }

    public bool SurfaceSubscriptions { get; }

    /// <summary>ZMQ_CONFLATE: only the newest queued message of a pipe is delivered.</summary>
    public bool Conflate { get; set; }

    public int Count => _pipes.Count;

    public void Add(Pipe pipe) => _pipes.Add(pipe);

    public void Remove(Pipe pipe)
    {
        int index = _pipes.IndexOf(pipe);
        if (index < 0)
        {
            return;
        }

        _pipes.RemoveAt(index);
        if (_current > index || _current >= _pipes.Count)
        {
            _current = _pipes.Count == 0 ? 0 : (_current > index ? _current - 1 : 0);
        }

        if (_inMessage == pipe)
        {
            _inMessage = null;
        }
    }

    /// <summary>Peeks the next frame due, skipping engine commands; false when nothing is queued.</summary>
    public bool TryPeek(out Pipe pipe, out ZmtpFrameHeader header, out ReadOnlySpan<byte> body)
    {
        if (_inMessage is not null)
        {
            pipe = _inMessage;
            return TryPeekFrom(pipe, out header, out body);
        }

        int count = _pipes.Count;
        for (int i = 0; i < count; i++)
        {
            if (_current >= count)
            {
                _current = 0;
            }

            pipe = _pipes[_current];
            if (TryPeekFrom(pipe, out header, out body))
            {
                return true;
            }

            _current++;
        }

        pipe = null!;
        header = default;
        body = default;
        return false;
    }

    /// <summary>Consumes the frame just peeked from <paramref name="pipe"/>.</summary>
    public void Consume(Pipe pipe, in ZmtpFrameHeader header)
    {
        pipe.ConsumeFrame(header);
        if (header.More && !header.IsCommand)
        {
            _inMessage = pipe;
            return;
        }

        _inMessage = null;
        _current++;
    }

    /// <summary>True when some pipe holds a frame for the application.</summary>
    public bool HasMessage => TryPeek(out _, out _, out _);

    private bool TryPeekFrom(Pipe pipe, out ZmtpFrameHeader header, out ReadOnlySpan<byte> body)
    {
        if (Conflate && _inMessage is null)
        {
            DropAllButNewest(pipe);
        }

        while (pipe.TryPeekFrame(out header, out body))
        {
            if (!header.IsCommand || (SurfaceSubscriptions && IsSubscriptionCommand(body)))
            {
                return true;
            }

            // PING/PONG were answered by the engine; other commands are ignored (L11).
            pipe.ConsumeFrame(header);
        }

        return false;
    }

    private static void DropAllButNewest(Pipe pipe)
    {
        while (pipe.InboundQueuedMessages > 1 && pipe.TryPeekFrame(out var header, out _))
        {
            pipe.ConsumeFrame(header);
        }
    }

    private static bool IsSubscriptionCommand(ReadOnlySpan<byte> body)
        => ZmtpCommandCodec.TryParse(body, out var command) && ZmtpSubscription.TryParseCommand(command, out _, out _);
}
