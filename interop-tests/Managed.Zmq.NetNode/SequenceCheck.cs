namespace Managed.Zmq.NetNode;

/// <summary>
/// Counts numbered messages ("PREFIX-N" in the last frame) as they arrive: how many, how many
/// repeats of a number already seen, how many arrived below the highest number seen so far, and
/// the fewest increasing runs the arrival order splits into.
/// </summary>
/// <remarks>
/// A sender with one pipe numbers its messages in order, and each connection delivers its share in
/// order (one pipe per connection, FIFO); a PULL fair-queues its connections, so a connection's
/// leftovers may come between a newer connection's messages. So arrivals below the highest seen
/// are allowed across connections, and what the pattern promises is that the arrival order is a
/// merge of at most as many increasing runs as there were connections.
/// </remarks>
public sealed class SequenceCheck
{
    private readonly HashSet<long> _seen = [];
    private long _highest = -1;

    /// <summary>The last number of each run, ascending: a number extends the run with the largest tail below it (fewest runs).</summary>
    private readonly List<long> _runTails = [];

    public long Count { get; private set; }
    public long Duplicates { get; private set; }
    public long Reordered { get; private set; }
    public long Highest => _highest;
    public long Unique => _seen.Count;

    /// <summary>The fewest increasing runs the distinct numbers, in arrival order, split into.</summary>
    public long Runs => _runTails.Count;

    public void Add(string token)
    {
        Count++;
        int dash = token.LastIndexOf('-');
        if (dash < 0 || !long.TryParse(token.AsSpan(dash + 1), out long n))
        {
            return;
        }

        if (!_seen.Add(n))
        {
            Duplicates++;
        }
        else
        {
            if (n < _highest)
            {
                Reordered++;
            }

            int above = ~_runTails.BinarySearch(n);
            if (above > 0)
            {
                _runTails[above - 1] = n;
            }
            else
            {
                _runTails.Insert(0, n);
            }
        }

        _highest = Math.Max(_highest, n);
    }

    public string Summary() => $"count={Count} unique={Unique} dups={Duplicates} reordered={Reordered} max={Highest} runs={Runs}";
}
