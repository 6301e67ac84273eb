using Managed.Zmq.Buffers;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Tests.Buffers;

/// <summary>
/// A Message's own buffers: those a pool holds come from the library's pool with their bucket's capacity and come
/// back to the calling thread's cache; larger ones come from the allocator with exactly the size asked; the pool keeps
/// a bounded number of large buffers idle; a Message created and disposed per send reuses one buffer; a large owned
/// frame, sent by reference, arrives intact.
/// </summary>
public sealed unsafe class OwnedBuffersTests
{
    [Theory]
    [InlineData(1, 16)]
    [InlineData(64, 64)]
    [InlineData(100, 128)]
    [InlineData(Tuning.Frames.PooledOwnedUpTo, Tuning.Frames.PooledOwnedUpTo)]
    [InlineData(Tuning.Frames.PooledOwnedUpTo + 1, Tuning.Frames.PooledOwnedUpTo + 1)]
    [InlineData(40_000, 64 * 1024)]
    [InlineData(64 * 1024, 64 * 1024)]
    public void Allocate_AnySize_BucketCapacityUpToThresholdExactAbove(int size, int expected)
    {
        byte* buffer = OwnedBuffers.Allocate(size, out int capacity);
        try
        {
            Assert.Equal(expected, capacity);
            new Span<byte>(buffer, capacity).Fill(0xA5);
        }
        finally
        {
            OwnedBuffers.Free(buffer, capacity);
        }
    }

    [Theory]
    [InlineData(200)]
    [InlineData(64 * 1024)]
    [InlineData(Tuning.Frames.PooledOwnedUpTo)]
    public void Free_PooledSize_NextAllocateOnThisThreadReusesIt(int size)
    {
        byte* first = OwnedBuffers.Allocate(size, out int capacity);
        OwnedBuffers.Free(first, capacity);

        byte* second = OwnedBuffers.Allocate(size, out int secondCapacity);
        OwnedBuffers.Free(second, secondCapacity);

        Assert.Equal((nint)first, (nint)second);
        Assert.Equal(capacity, secondCapacity);
    }

    [Theory]
    [InlineData(16)]
    [InlineData(1024)]
    [InlineData(64 * 1024)]
    [InlineData(1024 * 1024)]
    [InlineData(Tuning.Frames.PooledOwnedUpTo)]
    public void GetMaxIdle_AnySize_DefaultCapWithinTheByteBudget(int capacity)
    {
        int index = BufferPool.GetBucketIndex(capacity);
        int cap = OwnedBuffers.GetMaxIdle(index);
        int defaultCap = new BufferPool().GetMaxBuffers(index);

        Assert.InRange(cap, 2, defaultCap);
        Assert.True(cap == defaultCap || (long)cap * capacity <= Math.Max(2L * capacity, Tuning.Frames.OwnedPoolBytesPerSize), $"{cap} idle buffers of {capacity} B");
        if ((long)defaultCap * capacity <= Tuning.Frames.OwnedPoolBytesPerSize)
        {
            Assert.Equal(defaultCap, cap);
        }
    }

    [Fact]
    public void Free_LargeBuffersFromAnotherThread_KeptUpToTheCapThenFreed()
    {
        // Buffers released on an I/O thread (a large frame sent by reference) land in the shared level, where the
        // sending thread's next allocation finds them; beyond the cap they go back to the allocator.
        int size = Tuning.Frames.PooledOwnedUpTo;
        int index = BufferPool.GetBucketIndex(size);
        int count = MessagePoolThreadCache.SlotsPerBucket + OwnedBuffers.GetMaxIdle(index) + 3;
        var buffers = new nint[count];
        for (int i = 0; i < count; i++)
        {
            buffers[i] = (nint)OwnedBuffers.Allocate(size, out _);
        }

        var releaser = new Thread(() =>
        {
            foreach (nint buffer in buffers)
            {
                OwnedBuffers.Free((byte*)buffer, size);
            }
        });
        releaser.Start();
        Assert.True(releaser.Join(TimeSpan.FromSeconds(30)));

        int idle = OwnedBuffers.IdleCount(index);
        byte* reused = OwnedBuffers.Allocate(size, out int capacity);
        try
        {
            Assert.InRange(idle, 1, OwnedBuffers.GetMaxIdle(index));
            Assert.Contains((nint)reused, buffers);
        }
        finally
        {
            OwnedBuffers.Free(reused, capacity);
        }
    }

    [Fact]
    public void Message_CreatedAndDisposedPerSend_ReusesOneSmallBuffer()
    {
        nint first;
        using (var message = new Message(64))
        {
            first = Address(message);
        }

        using var next = new Message(new string('x', 50)); // the same 64-byte bucket
        Assert.Equal(first, Address(next));
    }

    [Fact]
    public void Copy_SmallSourceIntoZeroCopyTarget_ContentIndependentOfSource()
    {
        using var source = new Message(new byte[] { 1, 2, 3 });
        int freed = 0;
        byte[] callerMemory = [9];
        fixed (byte* pinned = callerMemory)
        {
            using var target = new Message((nint)pinned, 1, _ => freed++);
            target.Copy(source);
            source.Data[0] = 7;

            Assert.Equal(1, freed);
            Assert.Equal([1, 2, 3], target.ToArray());
        }
    }

    [Fact]
    public void Send_LargeOwnedMessageByReference_ArrivesIntact()
    {
        using var context = new Context();
        using var pull = new Socket(context, SocketType.Pull);
        using var push = new Socket(context, SocketType.Push);
        pull.SetOption(SocketOption.Rcvtimeo, 10_000);
        pull.Bind("tcp://127.0.0.1:*");
        push.Connect(pull.GetOptionString(SocketOption.Last_Endpoint));
        int size = Tuning.Frames.LargeFrame;
        for (int round = 0; round < 3; round++)
        {
            using var outgoing = new Message(size);
            outgoing.Data.Fill((byte)(round + 1));
            push.Send(outgoing);

            using var incoming = new Message();
            Assert.Equal(size, pull.Recv(incoming));
            Assert.True(incoming.Data.IndexOfAnyExcept((byte)(round + 1)) < 0);
        }
    }

    private static nint Address(Message message)
    {
        fixed (byte* data = message.Data)
        {
            return (nint)data;
        }
    }
}
