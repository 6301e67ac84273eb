using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// News no socket read brings, during a Recv's read turn (docs/ARCHITECTURE.md, the read turn): a wait on the one
/// connection's OS socket cannot be woken by a context shut down or a second peer, so the Recv looks for such news
/// between the slices of its wait and ends the turn when it finds some, rather than at the end of the turn's budget.
/// </summary>
/// <remarks>
/// Whether the news comes while the Recv waits on its turn is a race with the turn's budget (a slow machine may use it
/// up before the news is there), so each test tries a few times and needs one try in which the turn ended on the news.
/// Every try's Recv must end as the news says, whichever way it ended.
/// </remarks>
public sealed class ReadTurnNewsTests : TransportSockets
{
    private const int Tries = 20;

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Recv_ContextShutDownDuringTheTurnsWait_TurnEndsOnTheNewsAndRecvThrowsETERM(Transport transport)
    {
        bool endedOnNews = false;
        for (int i = 0; i < Tries && !endedOnNews; i++)
        {
            var context = NewContext();
            var rep = Create(SocketType.Rep, context);
            var req = Create(SocketType.Req, context);
            req.SetOption(SocketOption.Rcvtimeo, -1);
            req.Connect(TestEndpoint.Bind(rep, transport));
            req.Send("q");
            Assert.Equal("q", rep.RecvString());

            var call = BackgroundCall.Start(() => AssertZmqError(ZmqConstants.ETERM, () => req.RecvString()));
            WaitForTurnWait(req, 0);
            context.Shutdown();
            Assert.True(call.Wait(2 * Timeout), "the Recv did not end");
            endedOnNews = Volatile.Read(ref req.Core.Meters.ReadTurnNewsEnds) > 0;
        }

        Assert.True(endedOnNews, $"in {Tries} tries, no read turn ended on the shutdown");
    }

    [Theory]
    [TransportCases(Transport.Tcp, Transport.Ipc)]
    public void Recv_SecondPeerSendsDuringTheTurnsWait_TurnEndsOnTheNewsAndItsMessageArrives(Transport transport)
    {
        bool endedOnNews = false;
        for (int i = 0; i < Tries && !endedOnNews; i++)
        {
            var client = Create(SocketType.Dealer);
            string endpoint = TestEndpoint.Bind(client, transport);
            var first = Create(SocketType.Dealer);
            first.Connect(endpoint);
            first.Send("attached");
            Assert.Equal("attached", client.RecvString());
            client.Send("q");
            Assert.Equal("q", first.RecvString());

            // The first peer never answers: only the second one's message can end this Recv.
            long waits = Volatile.Read(ref client.Core.Meters.ReadTurnWaits);
            string? received = null;
            var call = BackgroundCall.Start(() => received = client.RecvString());
            WaitForTurnWait(client, waits);
            var second = Create(SocketType.Dealer);
            second.Connect(endpoint);
            second.Send($"second {i}");
            Assert.True(call.Wait(2 * Timeout), "the Recv did not end");
            Assert.Equal($"second {i}", received);
            endedOnNews = Volatile.Read(ref client.Core.Meters.ReadTurnNewsEnds) > 0;
        }

        Assert.True(endedOnNews, $"in {Tries} tries, no read turn ended on the second peer");
    }

    /// <summary>
    /// Waits until <paramref name="socket"/>'s Recv has asked for a wait on its turn since the count was
    /// <paramref name="before"/>. It may not (the turn was not to be had): the try then goes on and proves nothing.
    /// </summary>
    private static void WaitForTurnWait(Socket socket, long before) =>
        SpinWait.SpinUntil(() => Volatile.Read(ref socket.Core.Meters.ReadTurnWaits) > before, Timeout);
}
