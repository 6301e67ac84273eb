using Managed.Zmq.Pipes;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Patterns;

/// <summary>
/// Fair-queued receive over several pipes (RFC 28 §The DEALER Socket Type, RFC 30 §The PULL Socket
/// Type): whole messages are taken from the pipes in turn, and the frames of one message are never
/// interleaved with another's.
/// </summary>
/// <remarks>
/// <para>As in libzmq, the pipes that may hold data are kept in an active prefix of the array, and
/// round robin runs over that prefix only: a pipe found empty is swapped out of it, so a receive costs
/// in proportion to the pipes with data, not to every connection (many idle peers on one socket). A pipe
/// set aside is parked (<see cref="Pipe.TryParkInbound"/>); its producer's next commit queues it on
/// <see cref="PipeActivations"/>, which the reader drains at the start of each peek. The last active pipe
/// is never set aside, so a socket with one busy peer (the common case) keeps it active between messages
/// and its producer never pays for an activation.</para>
/// <para>Reader side only: all members run on the socket's thread.</para>
/// </remarks>
internal sealed class FairQueue
{
    private const int InitialCapacity = Tuning.Pipes.FairQueueInitialCapacity;

    /// <summary>Pipes [0, <see cref="_active"/>) may hold data; the rest are parked empty.</summary>
    private Pipe[] _pipes = new Pipe[InitialCapacity];
    private int _count;
    private int _active;

    /// <summary>The active pipe whose turn it is.</summary>
    private int _current;

    /// <summary>Parked pipes whose producer has committed since.</summary>
    private readonly PipeActivations _activations = new();

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

    public int Count => _count;

    /// <summary>Pipes currently in the round robin (diagnostics and tests).</summary>
    internal int ActiveCount => _active;

    /// <summary>Pipes looked at by peeks so far (tests: the cost of a receive, in pipes).</summary>
    internal long PipesExamined { get; private set; }

    /// <summary>Pipes their producers queued back after this reader set them aside (tests).</summary>
    internal long ActivationsTaken { get; private set; }

    public void Add(Pipe pipe)
    {
        if (_count == _pipes.Length)
        {
            Array.Resize(ref _pipes, _count * 2);
        }

        pipe.Activations = _activations;
        pipe.InboundAdopted();
        _pipes[_count] = pipe;
        pipe.FairQueueIndex = _count;
        _count++;

        // New pipes start active: whatever they already hold is found by the next peek.
        Swap(_count - 1, _active);
        _active++;
    }

    public void Remove(Pipe pipe)
    {
        int index = pipe.FairQueueIndex;
        if (index < 0 || index >= _count || _pipes[index] != pipe)
        {
            return;
        }

        if (index < _active)
        {
            // The last active pipe takes the removed one's place (and keeps its turn if it had it).
            _active--;
            Swap(index, _active);
            if (_current == _active)
            {
                _current = index;
            }

            index = _active;
        }

        _count--;
        Swap(index, _count);
        _pipes[_count] = null!;
        pipe.FairQueueIndex = -1;
        if (_current >= _active)
        {
            _current = 0;
        }

        if (_inMessage == pipe)
        {
            _inMessage = null;
        }
    }

    /// <summary>Peeks the next frame due, skipping engine commands; false when nothing is queued.</summary>
    public bool TryPeek(out Pipe pipe, out InboundFrame frame)
    {
        if (_inMessage is not null)
        {
            pipe = _inMessage;
            return TryPeekFrom(pipe, out frame);
        }

        TakeActivations();
        while (_active > 0)
        {
            if (_current >= _active)
            {
                _current = 0;
            }

            pipe = _pipes[_current];
            PipesExamined++;
            if (TryPeekFrom(pipe, out frame))
            {
                return true;
            }

            if (_active == 1)
            {
                // The last active pipe stays in the round robin though empty: the next peek looks at its producer's
                // count once, where parking it would cost an activation (two interlocked operations by its producer,
                // one by this reader, the pipe's state crossing between their threads) each time this reader
                // catches up with it.
                break;
            }

            if (pipe.TryParkInbound())
            {
                // The last active pipe takes its place and its turn; the producer brings this one back.
                _active--;
                Swap(_current, _active);
            }
        }

        pipe = null!;
        frame = default;
        return false;
    }

    /// <summary>Consumes the frame just peeked from <paramref name="pipe"/>.</summary>
    /// <summary>
    /// Consumes the rest of a message from <paramref name="frame"/> on: the queue keeps to this pipe until the
    /// message's last frame, so what follows is the same message's.
    /// </summary>
    public void DropMessage(Pipe pipe, in InboundFrame frame)
    {
        bool more = frame.More;
        Consume(pipe, frame);
        while (more && TryPeek(out var next, out var rest))
        {
            more = rest.More;
            Consume(next, rest);
        }
    }

    public void Consume(Pipe pipe, in InboundFrame frame)
    {
        pipe.ConsumeFrame(frame);
        if (frame.More && !frame.IsCommand)
        {
            _inMessage = pipe;
            return;
        }

        _inMessage = null;
        _current++;
        if (_active > 1)
        {
            // The others' turns come before this pipe's next one.
            pipe.PrefetchNextRead();
        }
    }

    /// <summary>True when some pipe holds a frame for the application.</summary>
    public bool HasMessage => TryPeek(out _, out _);

    /// <summary>Moves the pipes their producers woke back into the active prefix.</summary>
    private void TakeActivations()
    {
        var next = _activations.TakeAll();
        while (next is not null)
        {
            var pipe = next;
            next = pipe.NextActivated;
            pipe.NextActivated = null;
            pipe.InboundReactivated();
            ActivationsTaken++;

            int index = pipe.FairQueueIndex;
            if (index >= _active && index < _count && _pipes[index] == pipe)
            {
                Swap(index, _active);
                _active++;
            }
        }
    }

    private void Swap(int a, int b)
    {
        if (a == b)
        {
            return;
        }

        var first = _pipes[a];
        var second = _pipes[b];
        _pipes[a] = second;
        _pipes[b] = first;
        second.FairQueueIndex = a;
        first.FairQueueIndex = b;
    }

    private bool TryPeekFrom(Pipe pipe, out InboundFrame frame)
    {
        if (Conflate && _inMessage is null)
        {
            DropAllButNewest(pipe);
        }

        while (pipe.TryPeekFrame(out frame))
        {
            // A publisher's queue holds no command but SUBSCRIBE and CANCEL (the engine keeps no other,
            // and inproc peers write no other), which the publisher parses as it applies them.
            if (!frame.IsCommand || SurfaceSubscriptions)
            {
                return true;
            }

            // PING/PONG were answered by the engine; other commands are ignored (docs/libzmq-behaviour.md L11).
            pipe.ConsumeFrame(frame);
        }

        return false;
    }

    private static void DropAllButNewest(Pipe pipe)
    {
        while (pipe.InboundQueuedMessages > 1 && pipe.TryPeekFrame(out var frame))
        {
            pipe.ConsumeFrame(frame);
        }
    }
}
