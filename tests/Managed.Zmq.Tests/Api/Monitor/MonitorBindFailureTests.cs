using Managed.Zmq.Diagnostics;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Api.Monitor;

/// <summary>Tests that count the process's registered sockets run alone: other tests open and close sockets.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class ProcessSocketCountCollection
{
    public const string Name = "Process-wide socket count";
}

/// <summary>A Monitor call refused because its endpoint is taken leaves no socket behind.</summary>
[Collection(ProcessSocketCountCollection.Name)]
public sealed class MonitorBindFailureTests : TransportSockets
{
    private const int Attempts = 50;

    [Fact]
    public void Monitor_EndpointTaken_RefusedAndNoSocketKept()
    {
        string name = TestEndpoint.Inproc("monitor-taken");
        var holder = Create(SocketType.Pair);
        holder.Bind(name);
        var monitored = Create(SocketType.Dealer);
        int before = ZmqMetrics.RegisteredSocketCount;

        for (int i = 0; i < Attempts; i++)
        {
            var ex = Assert.Throws<ZmqException>(() => monitored.Monitor(name, SocketMonitorEvent.All));
            Assert.Equal(ZmqConstants.EADDRINUSE, ex.ErrorNumber);
        }

        // Without the close, each refused call kept its PAIR registered: Attempts more. The margin is for sockets
        // that code outside this test (an I/O thread's ZAP exchange of an earlier test's context) opens meanwhile.
        int kept = ZmqMetrics.RegisteredSocketCount - before;
        Assert.True(kept < Attempts / 2, $"{kept} sockets kept by {Attempts} refused Monitor calls");
    }
}
