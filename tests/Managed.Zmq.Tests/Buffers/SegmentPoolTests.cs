using Managed.Zmq.Buffers;

namespace Managed.Zmq.Tests.Buffers;

/// <summary>
/// The process-wide reserve of queue segments: sizes round up to powers of two, a returned array is rented again,
/// the byte budget holds over all sizes (a size rented more recently pushing out a staler one), a size idle since the trim's cut is handed back and one rented since is not. Each test has a pool of its
/// own, so other tests' queues cannot take or leave arrays in it.
/// </summary>
public sealed class SegmentPoolTests
{
    [Theory]
    [InlineData(1, 1024)]
    [InlineData(1024, 1024)]
    [InlineData(1025, 2048)]
    [InlineData(64 * 1024, 64 * 1024)]
    [InlineData(3 * 1024 * 1024, 4 * 1024 * 1024)]
    public void Rent_AnySize_PowerOfTwoAtLeastAsLarge(int size, int expected)
    {
        var pool = new SegmentPool(budget: 8 * 1024 * 1024);

        Assert.Equal(expected, pool.Rent(size).Length);
    }

    [Fact]
    public void Rent_AfterReturn_SameArrayAndBytesAccounted()
    {
        var pool = new SegmentPool(budget: 1024 * 1024);
        byte[] first = pool.Rent(16 * 1024);

        pool.Return(first);
        Assert.Equal(16 * 1024, pool.PooledBytes);

        Assert.Same(first, pool.Rent(10_000));
        Assert.Equal(0, pool.PooledBytes);
    }

    [Fact]
    public void Return_BeyondBudget_MakesRoomByDroppingAStalerSize()
    {
        var pool = new SegmentPool(budget: 256 * 1024);
        byte[][] stale = Enumerable.Range(0, 4).Select(_ => pool.Rent(64 * 1024)).ToArray();
        byte[] fresh = pool.Rent(128 * 1024);
        foreach (byte[] array in stale)
        {
            pool.Return(array);
        }

        // Four 64 KiB arrays fill the 256 KiB budget; the 128 KiB size was rented since, so two of them make way.
        pool.Return(fresh);

        Assert.Equal(256 * 1024, pool.PooledBytes);
        Assert.Same(fresh, pool.Rent(128 * 1024));
        // By reference: xUnit compares arrays by content, and the pool's arrays are uninitialised, so two of them
        // can be equal (all zeros, say) without being the same array.
        Assert.Contains(pool.Rent(64 * 1024), stale, ReferenceEqualityComparer.Instance);
        Assert.Contains(pool.Rent(64 * 1024), stale, ReferenceEqualityComparer.Instance);
        Assert.DoesNotContain(pool.Rent(64 * 1024), stale, ReferenceEqualityComparer.Instance);
    }

    [Fact]
    public void Return_BeyondBudgetOnlyFresherSizesHeld_Dropped()
    {
        var pool = new SegmentPool(budget: 256 * 1024);
        byte[] stale = pool.Rent(128 * 1024);
        byte[][] fresh = Enumerable.Range(0, 4).Select(_ => pool.Rent(64 * 1024)).ToArray();
        foreach (byte[] array in fresh)
        {
            pool.Return(array);
        }

        pool.Return(stale);

        Assert.Equal(256 * 1024, pool.PooledBytes);
        Assert.NotSame(stale, pool.Rent(128 * 1024));
    }

    [Fact]
    public void Return_ManyOfOneSize_KeepsUpToTheBudgetAndHandsAllBack()
    {
        var pool = new SegmentPool(budget: 4 * 1024 * 1024);
        byte[][] arrays = Enumerable.Range(0, 64).Select(_ => pool.Rent(64 * 1024)).ToArray();

        foreach (byte[] array in arrays)
        {
            pool.Return(array);
        }

        var rentedAgain = new HashSet<byte[]>(ReferenceEqualityComparer.Instance);
        for (int i = 0; i < arrays.Length; i++)
        {
            rentedAgain.Add(pool.Rent(64 * 1024));
        }

        Assert.True(rentedAgain.SetEquals(arrays));
        Assert.Equal(0, pool.PooledBytes);
    }

    [Fact]
    public void Return_NotFromThePool_Ignored()
    {
        var pool = new SegmentPool(budget: 1024 * 1024);

        pool.Return(new byte[3000]);
        pool.Return(new byte[512]);

        Assert.Equal(0, pool.PooledBytes);
    }

    [Fact]
    public void Rent_AboveLargestSize_NotPooled()
    {
        var pool = new SegmentPool(budget: 64 * 1024 * 1024);
        byte[] huge = pool.Rent(SegmentPool.MaxSize + 1);

        pool.Return(huge);

        Assert.True(huge.Length > SegmentPool.MaxSize);
        Assert.Equal(0, pool.PooledBytes);
    }

    [Fact]
    public void Trim_SizeRentedSinceTheCut_Kept()
    {
        var pool = new SegmentPool(budget: 1024 * 1024);
        long beforeRent = Environment.TickCount64;
        pool.Return(pool.Rent(8 * 1024));

        pool.Trim(idleSince: beforeRent);

        Assert.Equal(8 * 1024, pool.PooledBytes);
    }

    [Fact]
    public void Trim_SizeIdleSinceTheCut_HandedToTheGc()
    {
        var pool = new SegmentPool(budget: 1024 * 1024);
        byte[] idle = pool.Rent(8 * 1024);
        pool.Return(idle);
        pool.Return(pool.Rent(32 * 1024));

        // long.MaxValue, the cut the memory-pressure trim uses: every size counts as idle.
        pool.Trim(idleSince: long.MaxValue);

        Assert.Equal(0, pool.PooledBytes);
        Assert.NotSame(idle, pool.Rent(8 * 1024));
    }
}
