namespace Managed.Zmq.NetNode;

/// <summary>
/// Counts numbered messages ("PREFIX-N" in the last frame) as they arrive: how many, how many
/// repeats of a number already seen, and how many arrived below the highest number seen so far.
/// </summary>
public sealed class SequenceCheck
{
    private readonly HashSet<long> _seen = [];
    private long _highest = -1;

    public long Count { get; private set; }
    public long Duplicates { get; private set; }
    public long Reordered { get; private set; }
    public long Highest => _highest;
    public long Unique => _seen.Count;

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
        else if (n < _highest)
        {
            Reordered++;
        }

        _highest = Math.Max(_highest, n);
    }

    public string Summary() => $"count={Count} unique={Unique} dups={Duplicates} reordered={Reordered} max={Highest}";
}
