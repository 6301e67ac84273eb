using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq;

/// <summary>A snapshot of a <see cref="MessagePool"/>'s counters.</summary>
public struct PoolStatistics
{
    /// <summary>Gets the number of <c>Rent</c> calls.</summary>
    public long TotalRents { get; init; }

    /// <summary>Gets the number of buffers given back, including rejects and releases of oversize rents.</summary>
    public long TotalReturns { get; init; }

    /// <summary>Gets the number of rents served from a cache level.</summary>
    public long PoolHits { get; init; }

    /// <summary>Gets the number of rents that had to allocate.</summary>
    public long PoolMisses { get; init; }

    /// <summary>Gets the number of returns discarded because level 2 was at its cap.</summary>
    public long PoolRejects { get; init; }

    /// <summary>Gets the number of rented buffers not yet given back: <see cref="TotalRents"/> minus <see cref="TotalReturns"/>.</summary>
    public long OutstandingBuffers { get; init; }

    /// <summary>Gets <see cref="TotalRents"/> (its Net.Zmq 0.4.x name, docs/migrating.md).</summary>
    public readonly long Rents => TotalRents;

    /// <summary>Gets <see cref="TotalReturns"/> (its Net.Zmq 0.4.x name, docs/migrating.md).</summary>
    public readonly long Returns => TotalReturns;

    /// <summary>Gets <see cref="OutstandingBuffers"/> (its Net.Zmq 0.4.x name, docs/migrating.md).</summary>
    public readonly long OutstandingMessages => OutstandingBuffers;

    /// <summary>Gets hits divided by hits plus misses, or 0 when there were none.</summary>
    public readonly double HitRate
    {
        get
        {
            long total = PoolHits + PoolMisses;
            return total == 0 ? 0.0 : (double)PoolHits / total;
        }
    }

    /// <summary>Returns a one-line summary of the counters.</summary>
    /// <returns>The summary.</returns>
    public override readonly string ToString() =>
        $"Rents: {TotalRents}, Returns: {TotalReturns}, Hits: {PoolHits}, Misses: {PoolMisses}, " +
        $"Rejects: {PoolRejects}, Outstanding: {OutstandingBuffers}, HitRate: {HitRate:P2}";
}
