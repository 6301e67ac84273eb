using Managed.Zmq.Tests.Support;
using Managed.Zmq.Tests.Threading;
using Managed.Zmq.Threading;
using Managed.Zmq.Transports;

namespace Managed.Zmq.Tests.Transports;

/// <summary>
/// The borrower's receive on the read turn (ReactorSocketTransport.Lending.cs): it waits for input before it receives,
/// unless its last receive filled its buffer, in which case the kernel likely holds more and it receives first, waiting
/// only if that finds nothing; news for the borrower's thread that comes while it receives without waiting ends its next
/// wait. Counts of waits, never times.
/// </summary>
public sealed class ReactorSocketTransportLendingTests
{
    private const int Timeout = 30_000;

    /// <param name="interruptible">
    /// The borrower waits through its thread's <see cref="InterruptibleWait"/> (a Recv's wait), else on the socket alone
    /// (a thread whose wait could not be made).
    /// </param>
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void ReceiveLent_AfterReceivesThatFilledTheirBuffer_ReceivesWithoutWaitingUntilItFindsNothing(bool interruptible)
    {
        WithLentTurn(interruptible, (peer, transport, wait) =>
        {
            Assert.Equal(interruptible, wait is not null);
            // One segment of 3,000 octets: three receives of 1,000 fill their buffer; the first waits for it, the next
            // two find the rest without waiting.
            byte[] buffer = new byte[1000];
            peer.Send(Bytes.Pattern(3000, 1));
            for (int i = 0; i < 3; i++)
            {
                Assert.Equal(1000, transport.ReceiveLent(buffer, Timeout * 1000, wait));
                Assert.Equal(Bytes.Pattern(3000, 1)[(1000 * i)..(1000 * (i + 1))], buffer);
                Assert.Equal(1, transport.LentWaits);
            }

            // The last one filled its buffer but the kernel holds nothing more: it finds none, then waits (here until
            // its short deadline, as nothing comes).
            Assert.Equal(0, transport.ReceiveLent(buffer, 1000, wait));
            Assert.Equal(2, transport.LentWaits);
            Assert.False(wait?.TakeInterrupted() ?? false);

            // A receive that came back short waits first again.
            peer.Send(Bytes.Pattern(500, 2));
            Assert.Equal(500, transport.ReceiveLent(buffer, Timeout * 1000, wait));
            Assert.Equal(3, transport.LentWaits);
            peer.Send(Bytes.Pattern(500, 3));
            Assert.Equal(500, transport.ReceiveLent(buffer, Timeout * 1000, wait));
            Assert.Equal(4, transport.LentWaits);
        });
    }

    [Fact]
    public void ReceiveLent_InterruptWhileReceivesFindInputWithoutWaiting_EndsTheNextWaitAtOnce()
    {
        WithLentTurn(interruptible: true, (peer, transport, threadWait) =>
        {
            InterruptibleWait wait = threadWait!;
            byte[] buffer = new byte[1000];
            peer.Send(Bytes.Pattern(3000, 1));
            Assert.Equal(1000, transport.ReceiveLent(buffer, Timeout * 1000, wait));
            Assert.Equal(1, transport.LentWaits);

            // News for this thread (a Recv's interrupt) while the next two receives find their input without waiting:
            // neither waits, so neither takes it.
            wait.Interrupt();
            for (int i = 1; i < 3; i++)
            {
                Assert.Equal(1000, transport.ReceiveLent(buffer, Timeout * 1000, wait));
                Assert.Equal(Bytes.Pattern(3000, 1)[(1000 * i)..(1000 * (i + 1))], buffer);
            }

            Assert.Equal(1, transport.LentWaits);
            Assert.False(wait.Interrupted);

            // The next receive finds nothing and waits: the interrupt left waiting ends that wait at once, well before its
            // deadline, and says so.
            Assert.Equal(0, transport.ReceiveLent(buffer, Timeout * 1000, wait));
            Assert.Equal(2, transport.LentWaits);
            Assert.True(wait.TakeInterrupted());

            // Used up: the wait after it is an ordinary one.
            peer.Send(Bytes.Pattern(500, 2));
            Assert.Equal(500, transport.ReceiveLent(buffer, Timeout * 1000, wait));
            Assert.Equal(Bytes.Pattern(500, 2), buffer[..500]);
            Assert.Equal(3, transport.LentWaits);
            Assert.False(wait.TakeInterrupted());
        });
    }

    /// <summary>
    /// Runs <paramref name="borrow"/> with a connected peer and an accepted connection's transport whose read loop has a
    /// lendable receive pending with nothing to read, lent to the borrowing thread; the turn goes back idle afterwards.
    /// The borrower is a thread of its own, with its own <see cref="InterruptibleWait"/> when <paramref name="interruptible"/>
    /// (passed in, else null): a test thread's wait may hold an interrupt that came too late for an earlier test's Recv,
    /// and one this test leaves must not reach a later test.
    /// </summary>
    private static void WithLentTurn(bool interruptible, Action<System.Net.Sockets.Socket, ReactorSocketTransport, InterruptibleWait?> borrow)
    {
        using var thread = new IoThread("lending-test");
        var pairs = ReactorSockets.Pairs(1);
        var (peer, accepted) = pairs[0];
        var transport = new ReactorSocketTransport(accepted, thread, "peer");
        try
        {
            byte[] loopBuffer = new byte[4096];
            ReactorSockets.OnThread(thread, () => _ = transport.ReceiveLendableAsync(loopBuffer));
            Assert.True(transport.ReceiveLendable);
            var call = BackgroundCall.Start(() =>
            {
                InterruptibleWait? wait = interruptible
                    ? InterruptibleWait.ForCurrentThread ?? throw new InvalidOperationException("no wait on this thread")
                    : null;
                Assert.True(transport.TryLendReceive(onlyIfAway: false));
                borrow(peer, transport, wait);
                transport.ReturnLent(loopBuffer, LentReturn.Idle);
            });
            Assert.True(call.Wait(2 * Timeout), "the borrower did not finish");
        }
        finally
        {
            // On its I/O thread, where it ends at once: from another thread it is only scheduled.
            ReactorSockets.OnThread(thread, transport.Dispose);
            ReactorSockets.DisposeAll(pairs);
        }
    }
}
