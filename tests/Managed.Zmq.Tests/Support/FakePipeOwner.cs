using Managed.Zmq.Pipes;

namespace Managed.Zmq.Tests.Support;

/// <summary>
/// A pipe's owner without a socket, context or I/O thread: pattern and pipe tests drive pipes directly,
/// acting as the engine or inproc peer themselves. Records the events a pipe raises.
/// </summary>
internal sealed class FakePipeOwner : IPipeOwner
{
    public bool ReplyDue { get; set; }

    public bool WritesLargeFramesDirect { get; set; }

    public List<(Pipe Pipe, PipeEventKind Kind)> Events { get; } = [];

    public void Enqueue(Pipe pipe, PipeEventKind kind) => Events.Add((pipe, kind));
}
