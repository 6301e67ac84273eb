namespace Managed.Zmq.Tests.Support;

/// <summary>
/// The read turn's contract for a REQ/REP pair over any mechanism (docs/ARCHITECTURE.md, the read turn): round trips of
/// many sizes, every 25th reply 64 KiB, each delivered whole, with both sides reading on their turn at least once.
/// </summary>
internal static class ReadTurnRoundTrips
{
    public const int Count = 200;

    public static void RunAndAssertBothSidesReadOnTheirTurn(Socket req, Socket rep)
    {
        using var message = new Message();
        for (int i = 0; i < Count; i++)
        {
            // A 64 KiB reply is a large frame, which the turn hands back to the read loop's large-frame path; under
            // CURVE its box comes in several reads, which the turn gathers before it decrypts.
            byte[] request = Bytes.Pattern(1 + (i * 37 % 3000), i);
            byte[] reply = i % 25 == 0 ? Bytes.Pattern(64 * 1024 + i, i) : Bytes.Pattern(1 + (i * 53 % 2000), i + 1);
            req.Send(request);
            Assert.Equal(request, rep.RecvBytes());
            rep.Send(reply);
            Assert.Equal(reply.Length, req.Recv(message));
            Assert.Equal(reply, message.ToArray());
        }

        Assert.True(req.Core.Meters.ReadTurnReads > 0, "the REQ never read on its turn");
        Assert.True(rep.Core.Meters.ReadTurnReads > 0, "the REP never read on its turn");
    }
}
