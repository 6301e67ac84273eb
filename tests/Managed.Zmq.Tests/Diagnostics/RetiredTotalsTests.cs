using Managed.Zmq.Diagnostics;

namespace Managed.Zmq.Tests.Diagnostics;

/// <summary>
/// The bounded totals that keep closed sockets' and gone pipes' counts: past the capacity, the key retired longest
/// ago joins its overflow key, and the sum over every key never goes back.
/// </summary>
public sealed class RetiredTotalsTests
{
    private const string Overflow = "(folded)";

    private static RetiredTotals<string> Create(int capacity) => new(capacity, static _ => Overflow, StringComparer.Ordinal);

    private static PipeTotals Sent(long messages) => new() { MessagesSent = messages, BytesSent = messages * 10 };

    private static Dictionary<string, PipeTotals> Copy(RetiredTotals<string> totals)
    {
        var into = new Dictionary<string, PipeTotals>(StringComparer.Ordinal);
        totals.CopyTo(into);
        return into;
    }

    [Fact]
    public void Add_PastCapacity_FoldsOldestKeyIntoOverflow()
    {
        var totals = Create(2);
        totals.Add("a", Sent(1));
        totals.Add("b", Sent(2));
        totals.Add("c", Sent(4));

        var copy = Copy(totals);
        Assert.Equal(2, totals.Count);
        Assert.Equal(new[] { Overflow, "b", "c" }.Order(StringComparer.Ordinal), copy.Keys.Order(StringComparer.Ordinal));
        Assert.Equal(1, copy[Overflow].MessagesSent);
        Assert.Equal(10, copy[Overflow].BytesSent);
        Assert.Equal(2, copy["b"].MessagesSent);
        Assert.Equal(4, copy["c"].MessagesSent);
    }

    [Fact]
    public void Add_KeyRetiredAgain_BecomesMostRecentAndSums()
    {
        var totals = Create(2);
        totals.Add("a", Sent(1));
        totals.Add("b", Sent(2));
        totals.Add("a", Sent(8));
        totals.Add("c", Sent(4));

        var copy = Copy(totals);
        Assert.False(copy.ContainsKey("b"));
        Assert.Equal(9, copy["a"].MessagesSent);
        Assert.Equal(2, copy[Overflow].MessagesSent);
    }

    [Fact]
    public void Add_ManyNewKeys_CountStaysAtCapacityAndSumNeverGoesBack()
    {
        var totals = Create(10);
        long added = 0;
        long lastSum = 0;
        for (int i = 0; i < 1000; i++)
        {
            totals.Add($"tcp://127.0.0.1:{i}", Sent(i % 7));
            added += i % 7;
            long sum = Copy(totals).Values.Sum(t => t.MessagesSent);
            Assert.True(sum >= lastSum, $"the sum went back from {lastSum} to {sum} at key {i}");
            lastSum = sum;
            Assert.True(totals.Count <= 10, $"{totals.Count} keys kept apart, capacity 10");
        }

        Assert.Equal(added, lastSum);
        Assert.Equal(11, Copy(totals).Count);
    }

    [Fact]
    public void Add_OverflowKeyItself_StaysFoldedAndIsNeverEvicted()
    {
        var totals = Create(1);
        totals.Add("a", Sent(1));
        totals.Add("b", Sent(2));
        totals.Add(Overflow, Sent(16));
        totals.Add("c", Sent(4));

        var copy = Copy(totals);
        Assert.Equal(1, totals.Count);
        Assert.Equal(4, copy["c"].MessagesSent);
        Assert.Equal(1 + 2 + 16, copy[Overflow].MessagesSent);
    }

    [Fact]
    public void Add_OverflowKeyBeforeAnyFolding_JoinsOverflowAndTakesNoSlot()
    {
        var totals = Create(1);
        totals.Add(Overflow, Sent(16));
        totals.Add("a", Sent(1));

        var copy = Copy(totals);
        Assert.Equal(1, totals.Count);
        Assert.Equal(1, copy["a"].MessagesSent);
        Assert.Equal(16, copy[Overflow].MessagesSent);
    }

    [Fact]
    public void Add_DepthsGiven_KeepsCountsOnly()
    {
        var totals = Create(4);
        totals.Add("a", new PipeTotals { MessagesReceived = 3, InboundMessages = 5, OutboundBytes = 7 });

        var a = Copy(totals)["a"];
        Assert.Equal(3, a.MessagesReceived);
        Assert.Equal(0, a.InboundMessages);
        Assert.Equal(0, a.OutboundBytes);
    }

    [Fact]
    public void Constructor_CapacityZero_Throws()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => Create(0));
    }
}
