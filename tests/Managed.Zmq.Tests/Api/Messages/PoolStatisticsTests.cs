namespace Managed.Zmq.Tests.Api.Messages;

public class PoolStatisticsTests
{
    [Fact]
    public void Aliases_Values_MirrorTotals()
    {
        var stats = new PoolStatistics { TotalRents = 5, TotalReturns = 3, OutstandingBuffers = 2 };
        Assert.Equal(5, stats.Rents);
        Assert.Equal(3, stats.Returns);
        Assert.Equal(2, stats.OutstandingMessages);
    }

    [Fact]
    public void HitRate_NoRents_IsZero() => Assert.Equal(0.0, default(PoolStatistics).HitRate);

    [Fact]
    public void HitRate_HitsAndMisses_IsHitsOverTotal() =>
        Assert.Equal(0.75, new PoolStatistics { PoolHits = 3, PoolMisses = 1 }.HitRate);

    [Fact]
    public void ToString_AllCounters_UsesDocumentedFormat()
    {
        var stats = new PoolStatistics
        {
            TotalRents = 4, TotalReturns = 3, PoolHits = 2, PoolMisses = 2, PoolRejects = 1, OutstandingBuffers = 1,
        };
        Assert.Equal(
            $"Rents: 4, Returns: 3, Hits: 2, Misses: 2, Rejects: 1, Outstanding: 1, HitRate: {0.5:P2}",
            stats.ToString());
    }

    [Fact]
    public void Type_Shape_IsMutableStructWithInitProperties()
    {
        Assert.True(typeof(PoolStatistics).IsValueType);
        Assert.Null(typeof(PoolStatistics).GetProperty(nameof(PoolStatistics.HitRate))!.SetMethod);
        Assert.NotNull(typeof(PoolStatistics).GetProperty(nameof(PoolStatistics.TotalRents))!.SetMethod);
    }

    [Fact]
    public void Type_PublicSurface_Has11MembersAsInApiTable() => Assert.Equal(11, ApiSurface.CountPublicMembers(typeof(PoolStatistics)));
}
