using Managed.Zmq.Tests.Support;
using Managed.Zmq.Tests.Threading;
using Managed.Zmq.Threading;
using Managed.Zmq.Transports;

namespace Managed.Zmq.Tests.Transports;

/// <summary>
/// The borrower's receive on the read turn (ReactorSocketTransport.Lending.cs): it waits for input before it receives,
/// unless its last receive filled its buffer, in which case the kernel likely holds more and it receives first, waiting
/// only if that finds nothing. Counts of waits, never times.
/// </summary>
public sealed class ReactorSocketTransportLendingTests
{
    private const int Timeout = 30_000;

    [Fact]
    public void ReceiveLent_AfterReceivesThatFilledTheirBuffer_ReceivesWithoutWaitingUntilItFindsNothing()
    {
        using var thread = new IoThread("lending-test");
        var pairs = ReactorSockets.Pairs(1);
        var (peer, accepted) = pairs[0];
        var transport = new ReactorSocketTransport(accepted, thread, "peer");
        try
        {
            // The read loop's lendable receive, pending with nothing to read, and lent.
            byte[] loopBuffer = new byte[4096];
            ReactorSockets.OnThread(thread, () => _ = transport.ReceiveLendableAsync(loopBuffer));
            Assert.True(transport.ReceiveLendable);
            Assert.True(transport.TryLendReceive(onlyIfAway: false));

            // One segment of 3,000 octets: three receives of 1,000 fill their buffer; the first waits for it, the next
            // two find the rest without waiting.
            byte[] buffer = new byte[1000];
            peer.Send(Bytes.Pattern(3000, 1));
            for (int i = 0; i < 3; i++)
            {
                Assert.Equal(1000, transport.ReceiveLent(buffer, Timeout * 1000, null));
                Assert.Equal(Bytes.Pattern(3000, 1)[(1000 * i)..(1000 * (i + 1))], buffer);
                Assert.Equal(1, transport.LentWaits);
            }

            // The last one filled its buffer but the kernel holds nothing more: it finds none, then waits (here until
            // its short deadline, as nothing comes).
            Assert.Equal(0, transport.ReceiveLent(buffer, 1000, null));
            Assert.Equal(2, transport.LentWaits);

            // A receive that came back short waits first again.
            peer.Send(Bytes.Pattern(500, 2));
            Assert.Equal(500, transport.ReceiveLent(buffer, Timeout * 1000, null));
            Assert.Equal(3, transport.LentWaits);
            peer.Send(Bytes.Pattern(500, 3));
            Assert.Equal(500, transport.ReceiveLent(buffer, Timeout * 1000, null));
            Assert.Equal(4, transport.LentWaits);

            transport.ReturnLent(loopBuffer, LentReturn.Idle);
        }
        finally
        {
            // On its I/O thread, where it ends at once: from another thread it is only scheduled.
            ReactorSockets.OnThread(thread, transport.Dispose);
            ReactorSockets.DisposeAll(pairs);
        }
    }
}
