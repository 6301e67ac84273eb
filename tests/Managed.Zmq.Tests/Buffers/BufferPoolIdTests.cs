using System.Runtime.CompilerServices;
using Managed.Zmq.Buffers;

namespace Managed.Zmq.Tests.Buffers;

/// <summary>
/// Pools made and dropped: a gone pool's id is given to a later pool, so the ids (and a long-lived thread's cache
/// slots) stay as many as the pools alive at once, not one for every pool ever made; and a later pool never takes
/// over a gone pool's cache.
/// </summary>
public sealed class BufferPoolIdTests
{
    private const int PoolsPerRound = 50;
    private const int Rounds = 20;

    [Fact]
    public void Pools_MadeUsedAndDropped_IdsGivenAgain()
    {
        int highestBefore = BufferPool.HighestId;
        for (int round = 0; round < Rounds; round++)
        {
            UseAndDrop(PoolsPerRound);
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }

        // Without reuse this test alone takes Rounds x PoolsPerRound new ids. With it, at most its 50 at once and
        // whatever the tests running beside it hold.
        int newIds = BufferPool.HighestId - highestBefore;
        Assert.True(newIds < Rounds * PoolsPerRound / 2, $"{newIds} new pool ids for {Rounds * PoolsPerRound} pools");
    }

    [Fact]
    public void Rent_PoolTakesGoneId_StartsWithoutTheGonePoolsBuffers()
    {
        int reused = 0;
        for (int round = 0; round < Rounds; round++)
        {
            if (RentFromPoolAfterOneWent())
            {
                reused++;
            }
        }

        // A test beside this one may take a freed id first now and then, but not every time.
        Assert.True(reused > 0, "no round's pool took the id of the pool dropped just before");
    }

    [Fact]
    public void Rent_NewPoolAfterOthersWentOnThisThread_GonePoolsCachesFreed()
    {
        UseAndDrop(PoolsPerRound);
        GC.Collect();
        GC.WaitForPendingFinalizers();

        // Whatever id it gets, a pool this thread starts using frees the gone pools' caches in its slots.
        var pool = new MessagePool();
        pool.Rent(64).Dispose();

        // What is left: the live pools this thread has used (this one, the library's own, those of tests that ran on
        // this thread and are still running); without the walk, the 50 gone pools' caches as well.
        int cached = ThreadCaches.Current.Pools.Count(cache => cache is not null);
        Assert.True(cached < PoolsPerRound / 2, $"{cached} pool caches on this thread after {PoolsPerRound} pools went");
        GC.KeepAlive(pool);
    }

    /// <summary>
    /// Drops a pool that cached a 64 B buffer on this thread, makes a new one and rents from it once, which must miss;
    /// true when the new pool took the dropped one's id. A method of its own, so that no pool of an earlier round is
    /// kept alive by this one's locals.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static bool RentFromPoolAfterOneWent()
    {
        // Earlier rounds' pools are finalized first, so that the collection below gives back only the dropped one's id.
        GC.Collect();
        GC.WaitForPendingFinalizers();
        int goneId = UseAndDrop(1);
        GC.Collect();
        GC.WaitForPendingFinalizers();

        var pool = new MessagePool();
        pool.Rent(64).Dispose();

        PoolStatistics statistics = pool.GetStatistics();
        Assert.Equal(1, statistics.TotalRents);
        Assert.Equal(1, statistics.PoolMisses);
        Assert.Equal(0, statistics.PoolHits);
        return pool.Buffers.Id == goneId;
    }

    /// <summary>Makes, uses on this thread and drops <paramref name="count"/> pools; the last one's id.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int UseAndDrop(int count)
    {
        int id = -1;
        for (int i = 0; i < count; i++)
        {
            var pool = new MessagePool();
            pool.Rent(64).Dispose();
            id = pool.Buffers.Id;
        }

        return id;
    }
}
