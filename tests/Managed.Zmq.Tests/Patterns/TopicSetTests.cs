using Managed.Zmq.Patterns;
using Managed.Zmq.Patterns.Subscriptions;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Tests.Patterns;

/// <summary>
/// The subscriber's counted prefix filter (RFC 29, docs/libzmq-behaviour.md L12) and the radix trie under it: prefix
/// matching, the empty prefix, overlapping prefixes, reference counts, pruning, every byte value,
/// and a randomized comparison with a naive list of prefixes.
/// </summary>
public sealed class TopicSetTests
{
    private static byte[] B(string text) => System.Text.Encoding.ASCII.GetBytes(text);

    [Fact]
    public void Matches_Prefix_MatchesLongerMessagesOnly()
    {
        var set = new TopicSet();
        set.Add(B("abc"));

        Assert.True(set.Matches(B("abc")));
        Assert.True(set.Matches(B("abcdef")));
        Assert.False(set.Matches(B("ab")));
        Assert.False(set.Matches(B("abd")));
        Assert.False(set.Matches(B("")));
        Assert.False(set.Matches(B("xabc")));
    }

    [Fact]
    public void Matches_EmptyTopic_MatchesEverythingIncludingEmptyMessage()
    {
        var set = new TopicSet();
        set.Add([]);

        Assert.True(set.Matches([]));
        Assert.True(set.Matches(B("anything")));
        Assert.True(set.Matches([0, 255]));
    }

    [Fact]
    public void Matches_OverlappingPrefixes_EachStillMatchesAfterTheOtherGoes()
    {
        var set = new TopicSet();
        set.Add(B("ab"));
        set.Add(B("abcd"));
        set.Add(B("abx"));

        Assert.True(set.Matches(B("abzz")));
        Assert.True(set.Remove(B("ab")));
        Assert.False(set.Matches(B("abzz")));
        Assert.True(set.Matches(B("abcde")));
        Assert.True(set.Matches(B("abx")));
        Assert.False(set.Matches(B("abc")));

        Assert.True(set.Remove(B("abcd")));
        Assert.False(set.Matches(B("abcde")));
        Assert.True(set.Matches(B("abx1")));
    }

    [Fact]
    public void Remove_SubscribedTwice_LastOfTwoRemovesReportsTrue()
    {
        var set = new TopicSet();
        Assert.True(set.Add(B("a")));
        Assert.False(set.Add(B("a")));

        Assert.False(set.Remove(B("a")));
        Assert.True(set.Matches(B("a1")));
        Assert.True(set.Remove(B("a")));
        Assert.False(set.Matches(B("a1")));
        Assert.False(set.Remove(B("a")));
        Assert.Equal(0, set.Count);
    }

    [Fact]
    public void Remove_NeverAddedOrOnlyAPrefixOfAKey_False()
    {
        var set = new TopicSet();
        set.Add(B("abcdef"));

        Assert.False(set.Remove(B("abc")));
        Assert.False(set.Remove(B("abcdefg")));
        Assert.False(set.Remove(B("")));
        Assert.True(set.Contains(B("abcdef")));
        Assert.False(set.Contains(B("abc")));
    }

    [Fact]
    public void Remove_Everything_NodeCountBackToZero()
    {
        var set = new TopicSet();
        string[] topics = ["", "a", "ab", "abc", "abd", "b", "ba", "zzzz", "abcdefghij"];
        for (int round = 0; round < 3; round++)
        {
            foreach (string topic in topics)
            {
                set.Add(B(topic));
            }

            Assert.True(set.NodeCount > 0);
            foreach (string topic in topics.Reverse())
            {
                Assert.True(set.Remove(B(topic)));
            }

            Assert.Equal(0, set.Count);
            Assert.Equal(0, set.NodeCount);
        }
    }

    [Fact]
    public void Churn_ManyDistinctTopics_NodeCountReturnsToZeroEachRound()
    {
        var set = new TopicSet();
        for (int round = 0; round < 5; round++)
        {
            for (int i = 0; i < 10_000; i++)
            {
                set.Add(B($"topic.{round}.{i}"));
            }

            // A radix trie has fewer than two nodes per key.
            Assert.True(set.NodeCount < 2 * set.Count + 1, $"{set.NodeCount} nodes for {set.Count} topics");
            for (int i = 0; i < 10_000; i++)
            {
                Assert.True(set.Remove(B($"topic.{round}.{i}")));
            }

            Assert.Equal(0, set.NodeCount);
        }
    }

    [Fact]
    public void Matches_ByteValuesZeroAnd255_TreatedAsOrdinaryBytes()
    {
        var set = new TopicSet();
        set.Add([0]);
        set.Add([255, 255]);
        set.Add([0, 255, 0]);

        Assert.True(set.Matches([0, 1]));
        Assert.True(set.Matches([255, 255, 0]));
        Assert.False(set.Matches([255, 0]));
        Assert.True(set.Remove([0]));
        Assert.False(set.Matches([0, 1]));
        Assert.True(set.Matches([0, 255, 0, 9]));
        Assert.False(set.Matches([0, 255]));
    }

    [Fact]
    public void Matches_LongTopics_ComparedInFull()
    {
        var set = new TopicSet();
        var longTopic = new byte[100_000];
        Random.Shared.NextBytes(longTopic);
        set.Add(longTopic);

        var message = new byte[longTopic.Length + 10];
        longTopic.CopyTo(message, 0);
        Assert.True(set.Matches(message));
        message[longTopic.Length - 1] ^= 1;
        Assert.False(set.Matches(message));
        Assert.False(set.Matches(longTopic.AsSpan(0, longTopic.Length - 1)));
    }

    [Fact]
    public void Matches_DeepChainOfPrefixes_WalksWithoutRecursion()
    {
        // Each topic one byte longer than the last: as deep a trie as a peer can make.
        var set = new TopicSet();
        var topic = new byte[20_000];
        for (int length = 1; length <= topic.Length; length++)
        {
            set.Add(topic.AsSpan(0, length));
        }

        Assert.True(set.Matches(topic));
        var visitor = new CountingVisitor();
        set.ForEach(ref visitor);
        Assert.Equal(topic.Length, visitor.Count);
        for (int length = 1; length <= topic.Length; length++)
        {
            Assert.True(set.Remove(topic.AsSpan(0, length)));
        }

        Assert.Equal(0, set.NodeCount);
    }

    [Fact]
    public void ForEach_CountedTopics_EachVisitedOnceWithItsBytes()
    {
        var set = new TopicSet();
        string[] topics = ["", "a", "a", "ab", "b\0c", "b"];
        foreach (string topic in topics)
        {
            set.Add(B(topic));
        }

        var visitor = new CollectingVisitor([]);
        set.ForEach(ref visitor);
        Assert.Equal(["", "a", "ab", "b", "b\0c"], visitor.Keys.Order(StringComparer.Ordinal));
    }

    [Fact]
    public void Randomized_AgainstNaiveList_SameAnswers()
    {
        // Short keys over a small alphabet that includes 0 and 255, so prefixes overlap a lot.
        var random = new Random(25);
        byte[] alphabet = [0, 1, 2, (byte)'a', (byte)'b', 255];
        var set = new TopicSet();
        var reference = new Dictionary<string, int>(StringComparer.Ordinal);

        byte[] RandomKey(int maxLength)
        {
            var key = new byte[random.Next(maxLength + 1)];
            for (int i = 0; i < key.Length; i++)
            {
                key[i] = alphabet[random.Next(alphabet.Length)];
            }

            return key;
        }

        static string K(byte[] key) => Convert.ToHexString(key);

        for (int step = 0; step < 50_000; step++)
        {
            var key = RandomKey(6);
            if (random.Next(3) != 0)
            {
                bool isNew = !reference.ContainsKey(K(key));
                reference[K(key)] = reference.GetValueOrDefault(K(key)) + 1;
                Assert.Equal(isNew, set.Add(key));
            }
            else
            {
                bool last = reference.TryGetValue(K(key), out int count) && count == 1;
                if (count == 1)
                {
                    reference.Remove(K(key));
                }
                else if (count > 1)
                {
                    reference[K(key)] = count - 1;
                }

                Assert.Equal(last, set.Remove(key));
            }

            var message = RandomKey(8);
            bool expected = reference.Keys.Any(topic => K(message).StartsWith(topic, StringComparison.Ordinal));
            Assert.Equal(expected, set.Matches(message));
            Assert.Equal(reference.Count, set.Count);
        }

        var visitor = new CollectingVisitor([]);
        set.ForEach(ref visitor);
        Assert.Equal(reference.Keys.Order(StringComparer.Ordinal), visitor.Keys.Select(k => K(System.Text.Encoding.Latin1.GetBytes(k))).Order(StringComparer.Ordinal));

        foreach (var (key, count) in reference)
        {
            for (int i = 0; i < count; i++)
            {
                set.Remove(Convert.FromHexString(key));
            }
        }

        Assert.Equal(0, set.Count);
        Assert.Equal(0, set.NodeCount);
    }

    [Fact]
    public void Matches_SteadyState_AllocatesNothing()
    {
        var set = new TopicSet();
        for (int i = 0; i < 1000; i++)
        {
            set.Add(B($"topic.{i}"));
        }

        var hit = B("topic.500.x");
        var miss = B("topic.x");
        Assert.True(set.Matches(hit));
        Assert.False(set.Matches(miss));

        // Warm up with the measured loop itself: the runtime's tier-up of Matches (call counting, then the
        // optimised code) can allocate on the calling thread during the first thousands of calls, which is
        // start-up, not steady state.
        for (int i = 0; i < 10_000; i++)
        {
            set.Matches(hit);
            set.Matches(miss);
        }

        long before = GC.GetAllocatedBytesForCurrentThread();
        int hits = 0;
        for (int i = 0; i < 10_000; i++)
        {
            hits += (set.Matches(hit) ? 1 : 0) + (set.Matches(miss) ? 1 : 0);
        }

        Assert.Equal(0, GC.GetAllocatedBytesForCurrentThread() - before);
        Assert.Equal(10_000, hits);
    }

    private struct CountingVisitor : ITrieWalkVisitor<int>
    {
        public int Count;

        public readonly bool Done => false;

        public bool Visit(ReadOnlySpan<byte> key, ref int value)
        {
            Count++;
            return true;
        }
    }

    private readonly struct CollectingVisitor(List<string> keys) : ITrieWalkVisitor<int>
    {
        public List<string> Keys => keys;

        public bool Done => false;

        public bool Visit(ReadOnlySpan<byte> key, ref int value)
        {
            keys.Add(System.Text.Encoding.Latin1.GetString(key));
            return true;
        }
    }
}
