using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Text;

namespace Managed.Zmq.Tests.Api.Messages;

public unsafe class MessageTests
{
    private const string NotInitialized = "Message not initialized";

    [Fact]
    public void Ctor_Default_IsEmpty()
    {
        using var message = new Message();
        Assert.Equal(0, message.Size);
        Assert.False(message.More);
        Assert.True(message.Data.IsEmpty);
        Assert.Equal("", message.ToString());
    }

    [Theory]
    [InlineData(0)]
    [InlineData(10)]
    [InlineData(100)]
    [InlineData(10 * 1024 * 1024)]
    public void Ctor_Size_AllocatesWritableFrame(int size)
    {
        using var message = new Message(size);
        Assert.Equal(size, message.Size);
        Assert.Equal(size, message.ActualDataSize);
        Assert.Equal(size, message.BufferSize);
        message.Data.Fill(0x5A);
        Assert.Equal(-1, message.Data.IndexOfAnyExcept((byte)0x5A));
    }

    [Fact]
    public void Ctor_NegativeSize_ThrowsArgumentOutOfRange()
    {
        var ex = Assert.Throws<ArgumentOutOfRangeException>(() => new Message(-1));
        Assert.Equal("size", ex.ParamName);
    }

    [Fact]
    public void Ctor_Span_CopiesAllByteValues()
    {
        byte[] data = Enumerable.Range(0, 256).Select(i => (byte)i).ToArray();
        using var message = new Message(data);
        data[0] = 99;
        Assert.Equal(256, message.Size);
        Assert.Equal(0, message.Data[0]);
        Assert.Equal(Enumerable.Range(0, 256).Select(i => (byte)i), message.ToArray());
    }

    [Fact]
    public void Ctor_LargeSpan_CopiesOneMegabyte()
    {
        byte[] data = new byte[1024 * 1024];
        new Random(7).NextBytes(data);
        using var message = new Message(data);
        Assert.Equal(data, message.ToArray());
    }

    [Fact]
    public void Ctor_EmptySpan_IsEmpty()
    {
        using var message = new Message(ReadOnlySpan<byte>.Empty);
        Assert.Equal(0, message.Size);
    }

    [Theory]
    [InlineData("hello")]
    [InlineData("こんにちは 世界 مرحبا Привет")]
    [InlineData("emoji 🚀🎉")]
    [InlineData("control \t\r\n\u0001")]
    [InlineData("embedded\0nul")]
    [InlineData("")]
    public void Ctor_String_EncodesUtf8AndRoundTrips(string text)
    {
        using var message = new Message(text);
        Assert.Equal(Encoding.UTF8.GetBytes(text), message.ToArray());
        Assert.Equal(text, message.ToString());
    }

    [Fact]
    public void Ctor_NullString_ThrowsArgumentNull()
    {
        var ex = Assert.Throws<ArgumentNullException>(() => new Message((string)null!));
        Assert.Equal("text", ex.ParamName);
    }

    [Fact]
    public void Ctor_ZeroCopy_ExposesCallerMemory()
    {
        nint memory = (nint)NativeMemory.Alloc(4);
        try
        {
            new Span<byte>((void*)memory, 4).Fill(7);
            using var message = new Message(memory, 4);
            Assert.Equal(4, message.Size);
            Assert.Equal(new byte[] { 7, 7, 7, 7 }, message.ToArray());
            message.Data[0] = 1;
            Assert.Equal(1, ((byte*)memory)[0]);
        }
        finally
        {
            NativeMemory.Free((void*)memory);
        }
    }

    [Fact]
    public void Ctor_ZeroCopyNegativeSize_ThrowsArgumentOutOfRange()
    {
        var ex = Assert.Throws<ArgumentOutOfRangeException>(() => new Message(1, -1));
        Assert.Equal("size", ex.ParamName);
    }

    [Fact]
    public void Ctor_ZeroCopyNullPointerWithSize_ThrowsArgumentException()
    {
        var ex = Assert.Throws<ArgumentException>(() => new Message(0, 1));
        Assert.Equal("data", ex.ParamName);
    }

    [Fact]
    public void Ctor_ZeroCopyNullPointerEmpty_IsAllowed()
    {
        using var message = new Message(0, 0);
        Assert.Equal(0, message.Size);
    }

    [Fact]
    public void Dispose_ZeroCopy_RunsCallbackExactlyOnceWithPointer()
    {
        var calls = new List<nint>();
        var message = new Message(1234, 0, calls.Add);
        message.Dispose();
        message.Dispose();
        Assert.Equal(new nint[] { 1234 }, calls);
    }

    [Fact]
    public void ReleaseAfterSend_ZeroCopy_DefersCallbackOnceAndLeavesEmptyUsableMessage()
    {
        int calls = 0;
        using var message = new Message(1, 0, _ => Interlocked.Increment(ref calls));
        message.SetMore(true);
        message.ReleaseAfterSend(mayWait: true);

        // Never inside the send on the caller's thread: the callback runs later, elsewhere.
        Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref calls) == 1, TimeSpan.FromSeconds(10)));
        Assert.True(message.IsInitialized);
        Assert.Equal(0, message.Size);
        Assert.False(message.More);
        message.Rebuild(3);
        message.Dispose();
        Assert.Equal(1, calls);
    }

    [Fact]
    public void Rebuild_ZeroCopy_RunsCallbackOnce()
    {
        int calls = 0;
        using var message = new Message(1, 0, _ => calls++);
        message.Rebuild();
        message.Rebuild(5);
        Assert.Equal(1, calls);
        Assert.Equal(5, message.Size);
    }

    [Fact]
    public void Move_ZeroCopyTarget_RunsTargetCallbackAndKeepsSourceCallbackForLater()
    {
        int targetCalls = 0;
        int sourceCalls = 0;
        var target = new Message(1, 0, _ => targetCalls++);
        var source = new Message(2, 0, _ => sourceCalls++);
        target.Move(source);
        Assert.Equal(1, targetCalls);
        Assert.Equal(0, sourceCalls);
        source.Dispose();
        Assert.Equal(0, sourceCalls);
        target.Dispose();
        Assert.Equal(1, sourceCalls);
        Assert.Equal(1, targetCalls);
    }

    [Fact]
    public void Copy_ZeroCopyTarget_RunsTargetCallbackOnce()
    {
        int calls = 0;
        using var target = new Message(1, 0, _ => calls++);
        using var source = new Message("abc");
        target.Copy(source);
        Assert.Equal(1, calls);
        Assert.Equal("abc", target.ToString());
    }

    [Fact]
    public void PrepareReceive_ZeroCopy_RunsCallbackOnce()
    {
        int calls = 0;
        using var message = new Message(1, 0, _ => calls++);
        "xy"u8.CopyTo(message.PrepareReceive(2));
        Assert.Equal(1, calls);
        Assert.Equal("xy", message.ToString());
    }

    [Fact]
    public void Dispose_ThrowingCallback_IsSwallowed()
    {
        var message = new Message(1, 0, _ => throw new InvalidOperationException("boom"));
        message.Dispose();
        Assert.False(message.IsInitialized);
    }

    [Fact]
    public void Finalizer_UndisposedZeroCopy_RunsCallbackOnce()
    {
        var counter = new StrongBox<int>();
        CreateAbandonedZeroCopy(counter);
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
        Assert.Equal(1, Volatile.Read(ref counter.Value));
    }

    [Fact]
    public void Finalizer_UndisposedOwnedMessages_DoNotCrash()
    {
        CreateAbandonedOwned();
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
    }

    [Fact]
    public void Finalizer_DisposedZeroCopy_DoesNotRunCallbackAgain()
    {
        var counter = new StrongBox<int>();
        CreateDisposedZeroCopy(counter);
        GC.Collect();
        GC.WaitForPendingFinalizers();
        Assert.Equal(1, Volatile.Read(ref counter.Value));
    }

    [Fact]
    public void Finalizer_ManyDisposedThenOneLiveZeroCopy_LiveOneUntouchedUntilLost()
    {
        // Disposed messages give their guard back for reuse: a recycled guard must watch only its new message.
        var disposedCalls = new StrongBox<int>();
        for (int i = 0; i < 100; i++)
        {
            CreateDisposedZeroCopy(disposedCalls);
        }

        var liveCalls = new StrongBox<int>();
        var live = new Message(1, 0, _ => Interlocked.Increment(ref liveCalls.Value));
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();

        Assert.Equal(100, Volatile.Read(ref disposedCalls.Value));
        Assert.Equal(0, Volatile.Read(ref liveCalls.Value));
        Assert.True(live.IsInitialized);
        GC.KeepAlive(live);
    }

    [Fact]
    public void Members_AfterDispose_ThrowMessageNotInitialized()
    {
        var message = new Message("x");
        using var other = new Message();
        message.Dispose();
        Action[] actions =
        [
            () => _ = message.Data,
            () => _ = message.Size,
            () => _ = message.More,
            () => _ = message.ActualDataSize,
            () => _ = message.BufferSize,
            () => message.GetProperty(MessageProperty.More),
            () => message.SetProperty(MessageProperty.More, 1),
            () => message.GetMetadata("Socket-Type"),
            () => message.ToArray(),
            () => message.ToString(),
            () => message.Rebuild(),
            () => message.Rebuild(1),
            () => message.Move(other),
            () => other.Move(message),
            () => message.Copy(other),
            () => other.Copy(message),
        ];
        foreach (Action action in actions)
        {
            var ex = Assert.Throws<InvalidOperationException>(action);
            Assert.Equal(NotInitialized, ex.Message);
        }
    }

    [Fact]
    public void SetActualDataSize_AfterDispose_ThrowsObjectDisposedNamedMessage()
    {
        var message = new Message(1);
        message.Dispose();
        var ex = Assert.Throws<ObjectDisposedException>(() => message.SetActualDataSize(0));
        Assert.Equal("Message", ex.ObjectName);
    }

    [Fact]
    public void SetActualDataSize_NonPooled_ThrowsInvalidOperation()
    {
        using var message = new Message(10);
        var ex = Assert.Throws<InvalidOperationException>(() => message.SetActualDataSize(5));
        Assert.Equal("SetActualDataSize can only be called on pooled messages", ex.Message);
    }

    [Fact]
    public void SetActualDataSize_Pooled_SetsSizeWithinBuffer()
    {
        var pool = new MessagePool();
        using Message message = pool.Rent(10);
        message.SetActualDataSize(16);
        Assert.Equal(16, message.Size);
        message.SetActualDataSize(0);
        Assert.Equal(0, message.ActualDataSize);
        Assert.Equal(16, message.BufferSize);
    }

    [Fact]
    public void SetActualDataSize_AboveBuffer_ThrowsArgumentException()
    {
        using Message message = new MessagePool().Rent(10);
        var ex = Assert.Throws<ArgumentException>(() => message.SetActualDataSize(17));
        Assert.Equal("Actual size (17) cannot exceed buffer size (16)", ex.Message);
    }

    [Fact]
    public void SetActualDataSize_Negative_ThrowsArgumentExceptionForSize()
    {
        using Message message = new MessagePool().Rent(10);
        var ex = Assert.Throws<ArgumentException>(() => message.SetActualDataSize(-1));
        Assert.Equal("size", ex.ParamName);
        Assert.StartsWith("Size cannot be negative", ex.Message);
    }

    [Fact]
    public void Dispose_Repeated_IsIdempotent()
    {
        var message = new Message(5);
        message.Dispose();
        message.Dispose();
        Assert.False(message.IsInitialized);
    }

    [Fact]
    public void GetProperty_More_ReflectsReceivedFlag()
    {
        using var message = new Message();
        Assert.Equal(0, message.GetProperty(MessageProperty.More));
        message.SetMore(true);
        Assert.Equal(1, message.GetProperty(MessageProperty.More));
        Assert.True(message.More);
    }

    [Fact]
    public void GetProperty_Shared_IsZero()
    {
        using var message = new Message("abc");
        Assert.Equal(0, message.GetProperty(MessageProperty.Shared));
    }

    [Fact]
    public void GetProperty_UnknownProperty_ThrowsEinval()
    {
        using var message = new Message();
        var ex = Assert.Throws<ZmqException>(() => message.GetProperty((MessageProperty)2));
        Assert.Equal(ZmqConstants.EINVAL, ex.ErrorNumber);
    }

    [Theory]
    [InlineData(MessageProperty.More)]
    [InlineData(MessageProperty.Shared)]
    public void SetProperty_AnyProperty_ThrowsEinval(MessageProperty property)
    {
        using var message = new Message();
        var ex = Assert.Throws<ZmqException>(() => message.SetProperty(property, 1));
        Assert.Equal(ErrorCode.EINVAL, ex.ErrorCode);
    }

    [Fact]
    public void GetMetadata_LocalMessage_ReturnsNull()
    {
        using var message = new Message("x");
        Assert.Null(message.GetMetadata("Socket-Type"));
        Assert.Null(message.GetMetadata("Peer-Address"));
    }

    [Fact]
    public void GetMetadata_Null_ThrowsArgumentNull()
    {
        using var message = new Message();
        var ex = Assert.Throws<ArgumentNullException>(() => message.GetMetadata(null!));
        Assert.Equal("property", ex.ParamName);
    }

    [Fact]
    public void ToArray_RepeatedCalls_ReturnFreshCopies()
    {
        using var message = new Message("abc"u8);
        byte[] first = message.ToArray();
        byte[] second = message.ToArray();
        Assert.NotSame(first, second);
        first[0] = 0;
        Assert.Equal((byte)'a', message.Data[0]);
    }

    [Fact]
    public void Data_DirectWrites_AreVisible()
    {
        using var message = new Message(3);
        "xyz"u8.CopyTo(message.Data);
        Assert.Equal("xyz", message.ToString());
    }

    [Fact]
    public void Rebuild_Repeated_ResetsSizeAndMore()
    {
        using var message = new Message("hello");
        message.SetMore(true);
        for (int i = 0; i < 10; i++)
        {
            message.Rebuild(i * 10);
            Assert.Equal(i * 10, message.Size);
            Assert.False(message.More);
        }

        message.Rebuild();
        Assert.Equal(0, message.Size);
    }

    [Fact]
    public void Rebuild_NegativeSize_ThrowsArgumentOutOfRange()
    {
        using var message = new Message();
        var ex = Assert.Throws<ArgumentOutOfRangeException>(() => message.Rebuild(-1));
        Assert.Equal("size", ex.ParamName);
    }

    [Fact]
    public void Move_Source_TransfersContentAndEmptiesSource()
    {
        using var target = new Message("old");
        using var source = new Message("new");
        source.SetMore(true);
        target.Move(source);
        Assert.Equal("new", target.ToString());
        Assert.True(target.More);
        Assert.Equal(0, source.Size);
        Assert.False(source.More);
    }

    [Fact]
    public void Move_Self_IsNoOp()
    {
        using var message = new Message("keep");
        message.Move(message);
        Assert.Equal("keep", message.ToString());
    }

    [Fact]
    public void Move_Null_ThrowsArgumentNull()
    {
        using var message = new Message();
        var ex = Assert.Throws<ArgumentNullException>(() => message.Move(null!));
        Assert.Equal("source", ex.ParamName);
    }

    [Fact]
    public void Copy_Source_IsIndependentAndKeepsSource()
    {
        using var source = new Message("abc");
        source.SetMore(true);
        using var copy = new Message("something longer");
        copy.Copy(source);
        Assert.Equal("abc", copy.ToString());
        Assert.True(copy.More);
        copy.Data[0] = (byte)'z';
        Assert.Equal("abc", source.ToString());
        Assert.Equal(3, source.Size);
    }

    [Fact]
    public void Copy_Null_ThrowsArgumentNull()
    {
        using var message = new Message();
        var ex = Assert.Throws<ArgumentNullException>(() => message.Copy(null!));
        Assert.Equal("source", ex.ParamName);
    }

    [Fact]
    public void Copy_FromPooled_IsNotPooled()
    {
        var pool = new MessagePool();
        using Message source = pool.Rent("abc"u8);
        using var copy = new Message();
        copy.Copy(source);
        Assert.Equal(3, copy.BufferSize);
        Assert.Throws<InvalidOperationException>(() => copy.SetActualDataSize(1));
    }

    [Fact]
    public void Content_Internal_ExposesBytes()
    {
        using var message = new Message("ab");
        Assert.True(message.Content.SequenceEqual("ab"u8));
    }

    [Fact]
    public void IsInitialized_AfterDispose_IsFalse()
    {
        var message = new Message();
        Assert.True(message.IsInitialized);
        message.Dispose();
        Assert.False(message.IsInitialized);
    }

    [Fact]
    public void PrepareReceive_SameSizeRepeatedly_ReusesBuffer()
    {
        using var message = new Message();
        nint first = Address(message.PrepareReceive(100));
        for (int i = 0; i < 100; i++)
        {
            Span<byte> span = message.PrepareReceive(100);
            Assert.Equal(first, Address(span));
            Assert.Equal(100, message.Size);
        }
    }

    [Fact]
    public void PrepareReceive_SteadyState_AllocatesNothingManaged()
    {
        using var message = new Message();
        message.PrepareReceive(256);
        message.SetMore(true);
        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < 1000; i++)
        {
            message.PrepareReceive(256)[0] = (byte)i;
            message.SetMore((i & 1) == 0);
        }

        Assert.Equal(before, GC.GetAllocatedBytesForCurrentThread());
    }

    [Fact]
    public void PrepareReceive_LargeFramesRepeatedly_ReusesBuffer()
    {
        using var message = new Message();
        nint first = Address(message.PrepareReceive(1024 * 1024));
        Assert.Equal(first, Address(message.PrepareReceive(1024 * 1024)));
        Assert.Equal(first, Address(message.PrepareReceive(600 * 1024)));
    }

    [Fact]
    public void PrepareReceive_SmallerFrame_ReusesCapacityButReportsSize()
    {
        using var message = new Message(200);
        nint first = Address(message.Data);
        Span<byte> span = message.PrepareReceive(50);
        Assert.Equal(first, Address(span));
        Assert.Equal(50, message.Size);
        Assert.Equal(50, message.BufferSize);
    }

    [Fact]
    public void PrepareReceive_AfterReleaseAfterSend_ReusesBuffer()
    {
        using var message = new Message(64);
        nint first = Address(message.Data);
        message.ReleaseAfterSend(mayWait: true);
        Assert.Equal(0, message.Size);
        Assert.Equal(first, Address(message.PrepareReceive(64)));
    }

    [Fact]
    public void PrepareReceive_Always_ClearsMoreUntilSetMore()
    {
        using var message = new Message();
        message.SetMore(true);
        message.PrepareReceive(1);
        Assert.False(message.More);
        message.SetMore(true);
        Assert.True(message.More);
    }

    [Fact]
    public void Type_Shape_IsSealedDisposable()
    {
        Assert.True(typeof(Message).IsSealed);
        Assert.True(typeof(IDisposable).IsAssignableFrom(typeof(Message)));
    }

    private static nint Address(Span<byte> span) => (nint)Unsafe.AsPointer(ref MemoryMarshal.GetReference(span));

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void CreateAbandonedZeroCopy(StrongBox<int> counter)
    {
        _ = new Message(42, 0, _ => Interlocked.Increment(ref counter.Value));
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void CreateDisposedZeroCopy(StrongBox<int> counter)
    {
        new Message(42, 0, _ => Interlocked.Increment(ref counter.Value)).Dispose();
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void CreateAbandonedOwned()
    {
        _ = new Message(1000);
        _ = new Message(200 * 1024);
        var emptied = new Message(10);
        emptied.ReleaseAfterSend(mayWait: true);
    }

    /// <summary>
    /// The API table's 21 members, plus <see cref="Message.Rebuild(MessagePool, int)"/> (ours, additive) and
    /// <see cref="Message.RoutingId"/> (libzmq's draft zmq_msg_routing_id, additive) and <see cref="Message.Group"/>
    /// (libzmq's draft zmq_msg_group, additive).
    /// </summary>
    [Fact]
    public void Type_PublicSurface_HasTheApiTablesMembersPlusRebuildFromPoolAndRoutingId() => Assert.Equal(24, ApiSurface.CountPublicMembers(typeof(Message)));
}
