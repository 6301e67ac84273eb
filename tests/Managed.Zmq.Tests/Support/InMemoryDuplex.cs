using System.IO.Pipelines;
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Tests.Support;

/// <summary>
/// A connected pair of in-memory byte streams: what one end writes, the other reads. The engine
/// gets <see cref="Transport"/>; the test plays the other end through <see cref="Peer"/>.
/// </summary>
internal sealed class InMemoryDuplex : IDisposable
{
    public InMemoryDuplex()
    {
        var options = new PipeOptions(useSynchronizationContext: false, pauseWriterThreshold: 0);
        var toEngine = new System.IO.Pipelines.Pipe(options);
        var toPeer = new System.IO.Pipelines.Pipe(options);
        Transport = new InMemoryByteTransport(toEngine.Reader, toPeer.Writer);
        Peer = new ScriptedPeer(toPeer.Reader, toEngine.Writer);
    }

    public InMemoryByteTransport Transport { get; }

    public ScriptedPeer Peer { get; }

    public void Dispose()
    {
        Transport.Dispose();
        Peer.Dispose();
    }
}
