using System.Globalization;

namespace Managed.Zmq.Tests.Support;

/// <summary>
/// The fair-queue check of PULL and GATHER: a burst from each sender, read only once every burst is queued at the
/// receiver, must arrive in order per sender and alternating between senders.
/// </summary>
internal static class FairQueueBursts
{
    /// <summary>
    /// Sends <paramref name="perSender"/> messages <c>"s:i"</c> from each of <paramref name="senders"/>, waits until
    /// <paramref name="receiver"/> holds every burst, reads them all and asserts each sender's order and that the
    /// reads switched between senders more than a queue drained pipe by pipe would (2 switches).
    /// </summary>
    /// <remarks>
    /// Reading before every burst is in would let a receiver quicker than the network drain one burst before the next
    /// arrives, with nothing to alternate with; so the wait is on <see cref="Socket.GetPeers"/>' queue depths.
    /// </remarks>
    public static void AssertFairQueued(Socket receiver, Socket[] senders, int perSender)
    {
        for (int s = 0; s < senders.Length; s++)
        {
            for (int i = 0; i < perSender; i++)
            {
                senders[s].Send($"{s}:{i}");
            }
        }

        Eventually.True(
            () => receiver.GetPeers() is { } peers && peers.Count == senders.Length && peers.All(peer => peer.InboundQueuedMessages == perSender),
            "every sender's burst is queued at the receiver");
        var next = new int[senders.Length];
        var order = new List<int>();
        for (int n = 0; n < senders.Length * perSender; n++)
        {
            string[] parts = receiver.RecvString().Split(':');
            int s = int.Parse(parts[0], CultureInfo.InvariantCulture);
            Assert.Equal(next[s]++, int.Parse(parts[1], CultureInfo.InvariantCulture));
            order.Add(s);
        }

        Assert.All(next, count => Assert.Equal(perSender, count));
        int switches = order.Zip(order.Skip(1)).Count(pair => pair.First != pair.Second);
        Assert.True(switches > senders.Length - 1, $"only {switches} switches between senders with every burst queued: not fair-queued");
    }
}
