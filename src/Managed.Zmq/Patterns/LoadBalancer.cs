
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Patterns;

/// <summary>
/// Round-robin send over the pipes that have HWM room (RFC 28 §The DEALER Socket Type,
/// RFC 30 §The PUSH Socket Type). A multipart message stays on the pipe its first frame chose.
/// </summary>
internal sealed class LoadBalancer
{
    private readonly List<Pipe> _pipes = [];
    private int _current;
    private Pipe? _inMessage;

    /// <summary>The rest of a message whose pipe went away is dropped, never sent elsewhere.</summary>
    private bool _dropRest;

    public int Count => _pipes.Count;

    /// <summary>The pipe the last message (or its first frame) went to.</summary>
    public Pipe? LastPipe { get; private set; }

    public void Add(Pipe pipe) => _pipes.Add(pipe);

    public void Remove(Pipe pipe)
    {
        int index = _pipes.IndexOf(pipe);
        if (index < 0)
        {
            return;
        }

        _pipes.RemoveAt(index);
        if (_current > index)
        {
            _current--;
        }

        if (_inMessage == pipe)
        {
            _inMessage = null;
            _dropRest = true;
        }
    }

    public SendStatus Send(in OutboundFrame frame)
    {
        bool more = frame.More;
        if (_dropRest)
        {
            _dropRest = more;
            return SendStatus.Sent;
        }

        var pipe = _inMessage ?? NextWritable();
        if (pipe is null)
        {
            return SendStatus.WouldBlock;
        }

        pipe.WriteFrame(frame);
        LastPipe = pipe;
        _inMessage = more ? pipe : null;
        return SendStatus.Sent;
    }

    /// <summary>True when the next frame can be sent without waiting.</summary>
    public bool CanSend
    {
        get
        {
            if (_inMessage is not null || _dropRest)
            {
                return true;
            }

            foreach (var pipe in _pipes)
            {
                if (pipe.CanWrite)
                {
                    return true;
                }
            }

            return false;
        }
    }

    private Pipe? NextWritable()
    {
        int count = _pipes.Count;
        for (int i = 0; i < count; i++)
        {
            if (_current >= count)
            {
                _current = 0;
            }

            var pipe = _pipes[_current++];
            if (pipe.CanWrite)
            {
                return pipe;
            }
        }

        return null;
    }
}
