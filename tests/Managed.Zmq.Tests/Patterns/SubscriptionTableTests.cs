using Managed.Zmq.Patterns.Subscriptions;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Pipes;
using Managed.Zmq.Security.Zap;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Patterns;

/// <summary>
/// The publisher's table of subscriptions (RFC 29, docs/libzmq-behaviour.md L12): a set of connections per topic, first and
/// last reported, one delivery per connection however many of its prefixes match, and a leaving
/// connection's topics dropped; plus a randomized comparison with a naive table.
/// </summary>
public sealed class SubscriptionTableTests
{
    private readonly FakePipeOwner _core = new();

    private static byte[] B(string text) => System.Text.Encoding.ASCII.GetBytes(text);

    private Pipe NewPipe() => new StreamPipe(_core, 1000, 1000, fromConnect: false) { PatternState = new SubscriberState() };

    private long _stamp;

    private List<Pipe> Match(SubscriptionTable table, string message)
    {
        var sink = new Collector([]);
        table.Match(B(message), ++_stamp, ref sink, stampEveryMatch: false);
        return sink.Pipes;
    }

    private static long StampOf(Pipe pipe) => ((SubscriberState)pipe.PatternState!).MatchStamp;

    [Fact]
    public void Subscribe_SameTopicTwiceOnOneConnection_OneCancelRemovesIt()
    {
        var table = new SubscriptionTable();
        var pipe = NewPipe();

        Assert.True(table.Subscribe(B("a"), pipe, out bool first));
        Assert.True(first);
        Assert.False(table.Subscribe(B("a"), pipe, out first));
        Assert.False(first);

        Assert.True(table.Unsubscribe(B("a"), pipe, out bool last));
        Assert.True(last);
        Assert.Empty(Match(table, "a1"));
        Assert.False(table.Unsubscribe(B("a"), pipe, out _));
        Assert.Equal(0, table.NodeCount);
    }

    [Fact]
    public void Subscribe_TwoConnectionsOneTopic_FirstAndLastReportedOnce()
    {
        var table = new SubscriptionTable();
        var one = NewPipe();
        var two = NewPipe();

        table.Subscribe(B("t"), one, out bool first);
        Assert.True(first);
        table.Subscribe(B("t"), two, out first);
        Assert.False(first);

        Assert.True(table.Unsubscribe(B("t"), one, out bool last));
        Assert.False(last);
        Assert.Equal([two], Match(table, "t!"));
        Assert.True(table.Unsubscribe(B("t"), two, out last));
        Assert.True(last);
        Assert.Equal(0, table.TopicCount);
    }

    [Fact]
    public void Match_SeveralPrefixesOfOneConnection_DeliveredOnce()
    {
        var table = new SubscriptionTable();
        var pipe = NewPipe();
        var other = NewPipe();
        table.Subscribe([], pipe, out _);
        table.Subscribe(B("a"), pipe, out _);
        table.Subscribe(B("ab"), pipe, out _);
        table.Subscribe(B("ab"), other, out _);

        Assert.Equal(2, Match(table, "abc").Count);
        Assert.Equal([pipe], Match(table, "a"));
        Assert.Equal([pipe], Match(table, ""));
        Assert.Equal([pipe, other], Match(table, "ab").OrderBy(p => p == other));
    }

    [Fact]
    public void Match_OnePrefixHeld_OffersWithoutStamping()
    {
        var table = new SubscriptionTable();
        var pipes = Enumerable.Range(0, 3).Select(_ => NewPipe()).ToArray();
        foreach (var pipe in pipes)
        {
            table.Subscribe([], pipe, out _);
        }

        Assert.Equal(3, Match(table, "any").Count);
        Assert.All(pipes, pipe => Assert.Equal(0, StampOf(pipe)));
    }

    [Fact]
    public void Match_SecondPrefixHeld_StampsTheFirstSetAndDeliversOnce()
    {
        var table = new SubscriptionTable();
        var both = NewPipe();
        var rootOnly = NewPipe();
        var deepOnly = NewPipe();
        table.Subscribe([], both, out _);
        table.Subscribe([], rootOnly, out _);
        table.Subscribe(B("ab"), both, out _);
        table.Subscribe(B("ab"), deepOnly, out _);

        var matched = Match(table, "abc");

        Assert.Equal(3, matched.Count);
        Assert.Equal(3, matched.Distinct().Count());
        Assert.All(new[] { both, rootOnly, deepOnly }, pipe => Assert.Equal(_stamp, StampOf(pipe)));
    }

    [Fact]
    public void Match_StampEveryMatch_OneSetStamped()
    {
        var table = new SubscriptionTable();
        var matchedPipe = NewPipe();
        var otherPipe = NewPipe();
        table.Subscribe(B("a"), matchedPipe, out _);
        table.Subscribe(B("b"), otherPipe, out _);

        var sink = new Collector([]);
        table.Match(B("a1"), ++_stamp, ref sink, stampEveryMatch: true);

        Assert.Equal([matchedPipe], sink.Pipes);
        Assert.Equal(_stamp, StampOf(matchedPipe));
        Assert.NotEqual(_stamp, StampOf(otherPipe));
    }

    [Fact]
    public void RemovePipe_LeavingConnection_ReportsTopicsOnlyItHeld()
    {
        var table = new SubscriptionTable();
        var leaving = NewPipe();
        var staying = NewPipe();
        foreach (string topic in new[] { "", "a", "ab", "b", "shared" })
        {
            table.Subscribe(B(topic), leaving, out _);
        }

        table.Subscribe(B("shared"), staying, out _);
        table.Subscribe(B("other"), staying, out _);

        var gone = new GoneCollector();
        table.RemovePipe(leaving, gone);

        Assert.Equal(["", "a", "ab", "b"], gone.Topics.Order(StringComparer.Ordinal));
        Assert.Equal(0, ((SubscriberState)leaving.PatternState!).Subscriptions);
        Assert.Equal(2, table.TopicCount);
        Assert.Equal([staying], Match(table, "shared"));
        Assert.Empty(Match(table, "abc"));

        table.RemovePipe(staying, gone);
        Assert.Equal(0, table.NodeCount);
    }

    [Fact]
    public void Churn_SubscribeAndLeave_NodeCountReturnsToZero()
    {
        var table = new SubscriptionTable();
        for (int round = 0; round < 3; round++)
        {
            var pipe = NewPipe();
            for (int i = 0; i < 20_000; i++)
            {
                table.Subscribe(B($"{i:x}.{round}"), pipe, out _);
            }

            table.RemovePipe(pipe, new GoneCollector());
            Assert.Equal(0, table.TopicCount);
            Assert.Equal(0, table.NodeCount);
        }
    }

    [Fact]
    public void Randomized_AgainstNaiveTable_SameAnswers()
    {
        var random = new Random(29);
        byte[] alphabet = [0, (byte)'a', (byte)'b', 255];
        var pipes = Enumerable.Range(0, 5).Select(_ => NewPipe()).ToArray();
        var table = new SubscriptionTable();
        var reference = new Dictionary<string, HashSet<Pipe>>(StringComparer.Ordinal);

        string RandomKey(int maxLength)
        {
            var key = new byte[random.Next(maxLength + 1)];
            for (int i = 0; i < key.Length; i++)
            {
                key[i] = alphabet[random.Next(alphabet.Length)];
            }

            return Convert.ToHexString(key);
        }

        for (int step = 0; step < 30_000; step++)
        {
            var pipe = pipes[random.Next(pipes.Length)];
            string key = RandomKey(5);
            int action = random.Next(20);
            if (action == 0)
            {
                var gone = new GoneCollector();
                table.RemovePipe(pipe, gone);
                var expectedGone = new List<string>();
                foreach (var (topic, holders) in reference.ToList())
                {
                    if (holders.Remove(pipe) && holders.Count == 0)
                    {
                        reference.Remove(topic);
                        expectedGone.Add(topic);
                    }
                }

                Assert.Equal(expectedGone.Order(StringComparer.Ordinal), gone.Topics.Select(t => Convert.ToHexString(System.Text.Encoding.Latin1.GetBytes(t))).Order(StringComparer.Ordinal));
            }
            else if (action < 12)
            {
                bool expectedFirst = !reference.TryGetValue(key, out var holders);
                if (expectedFirst)
                {
                    reference[key] = holders = [];
                }

                bool expectedAdded = holders!.Add(pipe);
                Assert.Equal(expectedAdded, table.Subscribe(Convert.FromHexString(key), pipe, out bool first));
                Assert.Equal(expectedFirst, first);
            }
            else
            {
                bool expectedRemoved = reference.TryGetValue(key, out var holders) && holders.Remove(pipe);
                bool expectedLast = expectedRemoved && holders!.Count == 0;
                if (expectedLast)
                {
                    reference.Remove(key);
                }

                Assert.Equal(expectedRemoved, table.Unsubscribe(Convert.FromHexString(key), pipe, out bool last));
                Assert.Equal(expectedLast, last);
            }

            string message = RandomKey(7);
            var expected = reference.Where(kv => message.StartsWith(kv.Key, StringComparison.Ordinal)).SelectMany(kv => kv.Value).Distinct().ToHashSet();
            var sink = new Collector([]);
            table.Match(Convert.FromHexString(message), ++_stamp, ref sink, stampEveryMatch: step % 2 == 0);
            Assert.Equal(expected.Count, sink.Pipes.Count);
            Assert.True(expected.SetEquals(sink.Pipes));
            Assert.Equal(reference.Count, table.TopicCount);
            Assert.Equal(reference.Values.Sum(h => h.Count(p => p == pipe)), ((SubscriberState)pipe.PatternState!).Subscriptions);
        }

        foreach (var pipe in pipes)
        {
            table.RemovePipe(pipe, new GoneCollector());
        }

        Assert.Equal(0, table.NodeCount);
    }

    [Fact]
    public void Match_SteadyState_AllocatesNothing()
    {
        var table = new SubscriptionTable();
        var pipes = Enumerable.Range(0, 3).Select(_ => NewPipe()).ToArray();
        table.Subscribe(B("a"), pipes[0], out _);
        foreach (var pipe in pipes)
        {
            table.Subscribe(B("ab"), pipe, out _);
        }

        for (int i = 0; i < 1000; i++)
        {
            table.Subscribe(B($"t{i}"), pipes[i % pipes.Length], out _);
        }

        var message = B("abc-message");
        var sink = new Counter();
        for (int i = 0; i < WarmUpMatches; i++)
        {
            table.Match(message, ++_stamp, ref sink, stampEveryMatch: false);
        }

        // The smaller of two windows, as SteadyStateRun measures: an allocation per match shows in both, while a
        // one-time cost of the runtime on this thread (such as starting its tiering worker) shows in one.
        long smallest = long.MaxValue;
        for (int window = 0; window < 2; window++)
        {
            long before = GC.GetAllocatedBytesForCurrentThread();
            for (int i = 0; i < 10_000; i++)
            {
                table.Match(message, ++_stamp, ref sink, stampEveryMatch: false);
            }

            smallest = Math.Min(smallest, GC.GetAllocatedBytesForCurrentThread() - before);
        }

        Assert.Equal(0, smallest);
        Assert.Equal(3 * (WarmUpMatches + 20_000), sink.Count);
    }

    /// <summary>Matches before measuring: past the runtime's call counting for every method a match runs.</summary>
    private const int WarmUpMatches = 100;

    private struct Counter : IMatchSink
    {
        public int Count;

        public bool Matched(Pipe pipe)
        {
            Count++;
            return true;
        }
    }

    private readonly struct Collector(List<Pipe> pipes) : IMatchSink
    {
        public List<Pipe> Pipes => pipes;

        public bool Matched(Pipe pipe)
        {
            pipes.Add(pipe);
            return true;
        }
    }

    private sealed class GoneCollector : ITopicGoneSink
    {
        public List<string> Topics { get; } = [];

        public void TopicGone(ReadOnlySpan<byte> topic) => Topics.Add(System.Text.Encoding.Latin1.GetString(topic));
    }
}
