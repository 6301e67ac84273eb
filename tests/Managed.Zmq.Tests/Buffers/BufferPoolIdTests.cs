using System.Runtime.CompilerServices;
using Managed.Zmq.Buffers;

namespace Managed.Zmq.Tests.Buffers;

/// <summary>
/// Pools made and dropped: a gone pool's id is given to a later pool, so a long-lived thread keeps cache slots for the
/// pools alive at once, not one for every pool ever made; and a later pool never takes over a gone pool's cache.
/// </summary>
public sealed class BufferPoolIdTests
{
    private const int PoolsPerRound = 50;
    private const int Rounds = 20;

    [Fact]
    public void Pools_MadeUsedAndDropped_ThreadSlotsStayNearPoolsAliveAtOnce()
    {
        for (int round = 0; round < Rounds; round++)
        {
            UseAndDrop(PoolsPerRound);
            GC.Collect();
            GC.WaitForPendingFinalizers();
        }

        // Without reuse the slots reach every id ever given, Rounds x PoolsPerRound here alone. With it they stay
        // near the pools alive at once: this test's 50 and whatever the tests running beside it hold.
        int slots = ThreadCaches.Current.Pools.Length;
        Assert.True(slots < Rounds * PoolsPerRound / 2, $"{slots} cache slots on this thread after {Rounds * PoolsPerRound} pools");
    }

    [Fact]
    public void Rent_PoolTakesGoneId_StartsWithoutTheGonePoolsBuffers()
    {
        for (int round = 0; round < Rounds; round++)
        {
            // The dropped pool left a 64 B buffer in this thread's cache; its id goes back with its finalizer.
            UseAndDrop(1);
            GC.Collect();
            GC.WaitForPendingFinalizers();

            var pool = new MessagePool();
            pool.Rent(64).Dispose();

            PoolStatistics statistics = pool.GetStatistics();
            Assert.Equal(1, statistics.TotalRents);
            Assert.Equal(1, statistics.PoolMisses);
            Assert.Equal(0, statistics.PoolHits);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void UseAndDrop(int count)
    {
        for (int i = 0; i < count; i++)
        {
            var pool = new MessagePool();
            pool.Rent(64).Dispose();
        }
    }
}
