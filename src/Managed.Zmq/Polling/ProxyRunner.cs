using System.Buffers.Binary;
using Managed.Zmq.Endpoints;
using Managed.Zmq.Sockets;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Polling;

/// <summary>
/// The loop behind <see cref="Proxy"/>: forwards whole messages between two sockets while the source
/// has one and the destination can take one, serves steering commands, and otherwise sleeps on a
/// <see cref="ReadinessWaiter"/> until one of its sockets is notified. It never spins and never sleeps
/// for a fixed time, so an idle proxy costs no CPU.
/// </summary>
/// <remarks>
/// A message moves only while the destination is writable, so the proxy never blocks inside a send:
/// a full or unconnected destination leaves the message queued at the source, steering commands stay
/// responsive, and HWM back-pressure reaches the source's peers as it would without a proxy.
/// </remarks>
internal sealed class ProxyRunner
{
    /// <summary>The frontend socket.</summary>
    private readonly Socket _frontend;

    /// <summary>The backend socket.</summary>
    private readonly Socket _backend;

    /// <summary>Where steering commands arrive; null for <see cref="Proxy.Start"/>.</summary>
    private readonly Socket? _control;

    /// <summary>Gets a copy of every forwarded frame; may be null.</summary>
    private readonly Socket? _capture;

    /// <summary>Where the loop sleeps; its listener is on the frontend, backend and control signals while running.</summary>
    private readonly ReadinessWaiter _waiter = new();

    /// <summary>The distinct sockets whose signals carry <see cref="_waiter"/>'s listener.</summary>
    private readonly List<SocketCore> _watched = [];

    /// <summary>STATISTICS counters of the frontend (mutable struct: updated in place through ref).</summary>
    private ProxyCounters _frontendCounters;

    /// <summary>STATISTICS counters of the backend.</summary>
    private ProxyCounters _backendCounters;

    /// <summary>Set by PAUSE, cleared by RESUME: messages stay queued at their source.</summary>
    private bool _paused;

    public ProxyRunner(Socket frontend, Socket backend, Socket? control, Socket? capture)
    {
        _frontend = frontend;
        _backend = backend;
        _control = control;
        _capture = capture;
    }

    /// <summary>Runs until TERMINATE (returns) or a socket error such as ETERM (throws).</summary>
    public void Run()
    {
        Watch(_frontend);
        Watch(_backend);
        if (_control is not null)
        {
            Watch(_control);
        }

        // One frame buffer for the whole run: a forwarded frame's content moves into the destination,
        // which leaves the Message empty and ready for the next receive.
        using var frame = new Message();
        try
        {
            while (true)
            {
                bool progress = false;
                if (_control is not null && IsReady(_control, PollEvents.In))
                {
                    if (ServeCommand(frame))
                    {
                        return;
                    }

                    progress = true;
                }

                if (!_paused)
                {
                    progress |= ForwardBurst(_frontend, ref _frontendCounters, _backend, ref _backendCounters, frame);
                    if (!ReferenceEquals(_frontend, _backend))
                    {
                        progress |= ForwardBurst(_backend, ref _backendCounters, _frontend, ref _frontendCounters, frame);
                    }
                }

                if (!progress)
                {
                    WaitForWork();
                }
            }
        }
        finally
        {
            foreach (var core in _watched)
            {
                core.Signal.RemoveListener(_waiter.Listener);
            }
        }
    }

    private void Watch(Socket socket)
    {
        var core = socket.Core;
        if (!_watched.Contains(core))
        {
            core.Signal.AddListener(_waiter.Listener);
            _watched.Add(core);
        }
    }

    /// <summary>Sleeps until a notification, unless something became possible after the last pass.</summary>
    private void WaitForWork()
    {
        int sequence = _waiter.BeginWait();
        try
        {
            if (!CanMakeProgress())
            {
                _waiter.Wait(sequence, long.MaxValue);
            }
        }
        finally
        {
            _waiter.EndWait();
        }
    }

    private bool CanMakeProgress()
    {
        if (_control is not null && IsReady(_control, PollEvents.In))
        {
            return true;
        }

        if (_paused)
        {
            // Still checks the sockets, so a shutdown while paused surfaces as ETERM.
            IsReady(_frontend, PollEvents.None);
            IsReady(_backend, PollEvents.None);
            return false;
        }

        return (IsReady(_frontend, PollEvents.In) && IsReady(_backend, PollEvents.Out))
            || (IsReady(_backend, PollEvents.In) && IsReady(_frontend, PollEvents.Out));
    }

    /// <summary>Throws ETERM after a context shutdown and ENOTSOCK for a disposed socket, as the Poller does.</summary>
    private static bool IsReady(Socket socket, PollEvents events) => SocketReadiness.Query(socket.Core, events) != PollEvents.None;

    /// <summary>Moves up to <see cref="Tuning.Sockets.ProxyBurstSize"/> whole messages; true when at least one moved.</summary>
    private bool ForwardBurst(Socket from, ref ProxyCounters fromCounters, Socket to, ref ProxyCounters toCounters, Message frame)
    {
        int moved = 0;
        while (moved < Tuning.Sockets.ProxyBurstSize && IsReady(from, PollEvents.In) && IsReady(to, PollEvents.Out))
        {
            if (!ForwardMessage(from, to, frame, out ulong bytes))
            {
                break;
            }

            fromCounters.MessagesIn++;
            fromCounters.BytesIn += bytes;
            toCounters.MessagesOut++;
            toCounters.BytesOut += bytes;
            moved++;
        }

        return moved != 0;
    }

    /// <summary>Moves one message frame by frame, MORE flags intact, copying each frame to the capture socket first.</summary>
    private bool ForwardMessage(Socket from, Socket to, Message frame, out ulong bytes)
    {
        bytes = 0;
        if (from.Recv(frame, RecvFlags.DontWait) < 0)
        {
            return false;
        }

        while (true)
        {
            bool more = frame.More;
            var flags = more ? SendFlags.SendMore : SendFlags.None;
            bytes += (ulong)frame.Size;
            _capture?.Send(frame.Data, flags);

            // The destination was writable, and only a message's first frame can wait (as in Net.Zmq).
            to.Send(frame, flags);
            if (!more)
            {
                return true;
            }

            // Delivery is atomic: the message's remaining frames are already queued.
            from.Recv(frame);
        }
    }

    /// <summary>Reads one command from the control socket; true for TERMINATE.</summary>
    private bool ServeCommand(Message frame)
    {
        if (_control!.Recv(frame, RecvFlags.DontWait) < 0)
        {
            return false;
        }

        bool statistics = false;
        bool terminate = false;
        var command = frame.Data;
        if (command.SequenceEqual("PAUSE"u8))
        {
            _paused = true;
        }
        else if (command.SequenceEqual("RESUME"u8))
        {
            _paused = false;
        }
        else if (command.SequenceEqual("TERMINATE"u8))
        {
            terminate = true;
        }
        else if (command.SequenceEqual("STATISTICS"u8))
        {
            statistics = true;
        }

        // Commands are single frames; anything a client appended is dropped with the command.
        // Unknown commands are ignored (libzmq aborts the process instead).
        while (frame.More)
        {
            _control.Recv(frame);
        }

        if (statistics)
        {
            SendStatistics();
        }
        else if (_control.Core.SocketType == SocketType.Rep)
        {
            // A REP control socket must answer before it can read the next command (libzmq 4.3.5 does the same).
            _control.Send(ReadOnlySpan<byte>.Empty);
        }

        return terminate;
    }

    private void SendStatistics()
    {
        Span<ulong> values =
        [
            _frontendCounters.MessagesIn, _frontendCounters.BytesIn, _frontendCounters.MessagesOut, _frontendCounters.BytesOut,
            _backendCounters.MessagesIn, _backendCounters.BytesIn, _backendCounters.MessagesOut, _backendCounters.BytesOut,
        ];
        Span<byte> buffer = stackalloc byte[sizeof(ulong)];
        for (int i = 0; i < values.Length; i++)
        {
            BinaryPrimitives.WriteUInt64LittleEndian(buffer, values[i]);
            _control!.Send(buffer, i < values.Length - 1 ? SendFlags.SendMore : SendFlags.None);
        }
    }
}
