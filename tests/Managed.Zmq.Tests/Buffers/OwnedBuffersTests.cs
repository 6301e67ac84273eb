using Managed.Zmq.Buffers;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Tests.Buffers;

/// <summary>
/// A Message's own buffers: small ones come from the library's pool with their bucket's capacity and come back to
/// the calling thread's cache; larger ones come from the allocator with exactly the size asked; a Message created
/// and disposed per send reuses one small buffer; a large owned frame, sent by reference, arrives intact.
/// </summary>
public sealed unsafe class OwnedBuffersTests
{
    [Theory]
    [InlineData(1, 16)]
    [InlineData(64, 64)]
    [InlineData(100, 128)]
    [InlineData(Tuning.Frames.PooledOwnedUpTo, Tuning.Frames.PooledOwnedUpTo)]
    [InlineData(Tuning.Frames.PooledOwnedUpTo + 1, Tuning.Frames.PooledOwnedUpTo + 1)]
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

    [Fact]
    public void Free_SmallBuffer_NextAllocateOnThisThreadReusesIt()
    {
        byte* first = OwnedBuffers.Allocate(200, out int capacity);
        OwnedBuffers.Free(first, capacity);

        byte* second = OwnedBuffers.Allocate(200, out int secondCapacity);
        OwnedBuffers.Free(second, secondCapacity);

        Assert.Equal((nint)first, (nint)second);
        Assert.Equal(capacity, secondCapacity);
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
