using Managed.Zmq.Diagnostics;
using Managed.Zmq.Internal;
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Sockets;

/// <summary>
/// One socket's side of <see cref="ZmqMetrics"/>: its pipes, by endpoint, for the observable instruments to
/// read when a listener collects, and what pipes that have gone counted, so the counters never go back.
/// Pipes are added and removed by the socket's thread (attach, detach: not per message); the collector reads
/// under the same lock.
/// </summary>
internal sealed class SocketMeters : IMeteredSocket
{
    private readonly Lock _lock = new();
    private readonly HashSet<Pipe> _pipes = [];

    /// <summary>Counts of pipes that have gone, by endpoint; the oldest folded into <see cref="ZmqMetrics.OverflowEndpoint"/>.</summary>
    private readonly RetiredTotals<string> _retired = new(
        Tuning.Metrics.RetiredSeriesPerSocket, static _ => ZmqMetrics.OverflowEndpoint, StringComparer.Ordinal);

    public SocketMeters(SocketType type)
    {
        TypeName = ZmqMetrics.TypeTag(type);
    }

    /// <summary>The <c>zmq.socket.type</c> tag value: the ZMTP name, e.g. ROUTER.</summary>
    public string TypeName { get; }

    /// <summary>Sends that found the pattern unable to take the message (HWM, no peer), waiting or not. Socket thread only; read racily.</summary>
    public long BlockedSends;

    long IMeteredSocket.BlockedSends => Volatile.Read(ref BlockedSends);

    /// <summary>Reads a Recv made on the read turn that brought input (SocketCore.ReadTurn.cs). Socket thread only; read racily.</summary>
    public long ReadTurnReads;

    /// <summary>Waits a Recv began on the read turn, each one borrow of the turn (SocketCore.ReadTurn.cs). Socket thread only; read racily.</summary>
    public long ReadTurnWaits;

    /// <summary>Waits on the read turn that an interrupt ended: news no read brings, the connection's close, or rarely an interrupt meant for an earlier wait (SocketCore.ReadTurn.cs). Socket thread only; read racily.</summary>
    public long ReadTurnInterrupts;

    /// <summary>Borrows of the read turn that ended with the read loop to read: the turn was not to be had, or what came needs the loop (a command, the end of the stream); SocketCore.ReadTurn.cs. Socket thread only; read racily.</summary>
    public long ReadTurnDeclines;

    /// <summary>Reads on the read turn that handed part of what they read back to the read loop (a command, a refused frame, a large frame whose rest did not come in time); SocketCore.ReadTurn.cs. Socket thread only; read racily.</summary>
    public long ReadTurnHandBacks;

    /// <summary>Read turns that ended because their time ran out: the budget of a thread without its wake-up channel, or the call's deadline (SocketCore.ReadTurn.cs). Socket thread only; read racily.</summary>
    public long ReadTurnRunOuts;

    public void Track(Pipe pipe)
    {
        lock (_lock)
        {
            _pipes.Add(pipe);
        }
    }

    /// <summary>The pipe is gone: its counts stay in the totals of its endpoint.</summary>
    public void Retire(Pipe pipe)
    {
        lock (_lock)
        {
            if (!_pipes.Remove(pipe))
            {
                return;
            }

            var totals = default(PipeTotals);
            PipeCounting.Add(ref totals, pipe, depths: false);
            _retired.Add(pipe.Endpoint, totals);
        }
    }

    /// <summary>Collector thread: this socket's totals by endpoint, live pipes' depths included.</summary>
    public void Collect(Dictionary<string, PipeTotals> into)
    {
        lock (_lock)
        {
            _retired.CopyTo(into);

            foreach (var pipe in _pipes)
            {
                into.TryGetValue(pipe.Endpoint, out var sum);
                PipeCounting.Add(ref sum, pipe, depths: true);
                into[pipe.Endpoint] = sum;
            }
        }
    }
}
