using System.Collections;

namespace Managed.Zmq.Tests.Api.Messages;

public class MultipartMessageTests
{
    private const string Empty = "Multipart message is empty";

    [Fact]
    public void Ctor_New_IsEmpty()
    {
        using var multipart = new MultipartMessage();
        Assert.Equal(0, multipart.Count);
        Assert.True(multipart.IsEmpty);
    }

    [Fact]
    public void Add_AllOverloads_AppendInOrder()
    {
        using var multipart = new MultipartMessage();
        multipart.Add(new Message("m"));
        multipart.Add("b"u8.ToArray());
        multipart.Add("s");
        multipart.Add("span"u8);
        multipart.AddEmptyFrame();
        Assert.Equal(5, multipart.Count);
        Assert.False(multipart.IsEmpty);
        Assert.Equal(new[] { "m", "b", "s", "span", "" }, multipart.Select(m => m.ToString()));
    }

    [Fact]
    public void Add_ByteArray_CopiesData()
    {
        using var multipart = new MultipartMessage();
        byte[] data = [1, 2, 3];
        multipart.Add(data);
        data[0] = 9;
        Assert.Equal(1, multipart[0].Data[0]);
    }

    [Fact]
    public void Add_NullArguments_ThrowArgumentNull()
    {
        using var multipart = new MultipartMessage();
        Assert.Equal("message", Assert.Throws<ArgumentNullException>(() => multipart.Add((Message)null!)).ParamName);
        Assert.Equal("data", Assert.Throws<ArgumentNullException>(() => multipart.Add((byte[])null!)).ParamName);
        Assert.Equal("text", Assert.Throws<ArgumentNullException>(() => multipart.Add((string)null!)).ParamName);
        Assert.Equal("message", Assert.Throws<ArgumentNullException>(() => multipart.Insert(0, null!)).ParamName);
    }

    [Fact]
    public void Indexer_OutOfRange_ThrowsArgumentOutOfRange()
    {
        using var multipart = new MultipartMessage();
        multipart.Add("a");
        Assert.Throws<ArgumentOutOfRangeException>(() => multipart[1]);
        Assert.Throws<ArgumentOutOfRangeException>(() => multipart[-1]);
    }

    [Fact]
    public void FirstLast_Frames_ReturnEnds()
    {
        using var multipart = new MultipartMessage();
        multipart.Add("first");
        multipart.Add("last");
        Assert.Equal("first", multipart.First.ToString());
        Assert.Equal("last", multipart.Last.ToString());
        Assert.Same(multipart[0], multipart.First);
    }

    [Fact]
    public void EmptyAccessors_Empty_ThrowInvalidOperation()
    {
        using var multipart = new MultipartMessage();
        Action[] actions =
        [
            () => _ = multipart.First,
            () => _ = multipart.Last,
            () => multipart.Pop(),
            () => multipart.PopBack(),
            () => multipart.PeekFirst(),
            () => multipart.PeekLast(),
            () => multipart.PeekFirstString(),
            () => multipart.PeekLastString(),
        ];
        foreach (Action action in actions)
        {
            Assert.Equal(Empty, Assert.Throws<InvalidOperationException>(action).Message);
        }
    }

    [Fact]
    public void Insert_Index_PlacesFrame()
    {
        using var multipart = new MultipartMessage();
        multipart.Add("a");
        multipart.Add("c");
        multipart.Insert(1, new Message("b"));
        multipart.Insert(3, new Message("d"));
        Assert.Equal(new[] { "a", "b", "c", "d" }, multipart.Select(m => m.ToString()));
    }

    [Fact]
    public void Insert_OutOfRange_ThrowsArgumentOutOfRange()
    {
        using var multipart = new MultipartMessage();
        using var message = new Message();
        Assert.Throws<ArgumentOutOfRangeException>(() => multipart.Insert(1, message));
    }

    [Fact]
    public void RemoveAt_Index_RemovesAndDisposesFrame()
    {
        using var multipart = new MultipartMessage();
        var frame = new Message("x");
        multipart.Add(frame);
        multipart.Add("y");
        multipart.RemoveAt(0);
        Assert.Equal(1, multipart.Count);
        Assert.False(frame.IsInitialized);
        Assert.Throws<ArgumentOutOfRangeException>(() => multipart.RemoveAt(5));
    }

    [Fact]
    public void Clear_Frames_DisposesAndRemovesAll()
    {
        using var multipart = new MultipartMessage();
        var a = new Message("a");
        var b = new Message("b");
        multipart.Add(a);
        multipart.Add(b);
        multipart.Clear();
        Assert.True(multipart.IsEmpty);
        Assert.False(a.IsInitialized);
        Assert.False(b.IsInitialized);
        multipart.Add("again");
        Assert.Equal(1, multipart.Count);
    }

    [Fact]
    public void Pop_Frames_HandsOwnershipToCaller()
    {
        using var multipart = new MultipartMessage();
        multipart.Add("first");
        multipart.Add("middle");
        multipart.Add("last");
        using Message first = multipart.Pop();
        using Message last = multipart.PopBack();
        Assert.Equal("first", first.ToString());
        Assert.Equal("last", last.ToString());
        Assert.Equal(1, multipart.Count);
        multipart.Dispose();
        Assert.True(first.IsInitialized);
        Assert.True(last.IsInitialized);
    }

    [Fact]
    public void Peek_Frames_ReadEndsWithoutRemoving()
    {
        using var multipart = new MultipartMessage();
        multipart.Add("héllo");
        multipart.Add("wörld");
        Assert.True(multipart.PeekFirst().SequenceEqual("héllo"u8));
        Assert.True(multipart.PeekLast().SequenceEqual("wörld"u8));
        Assert.Equal("héllo", multipart.PeekFirstString());
        Assert.Equal("wörld", multipart.PeekLastString());
        Assert.Equal(2, multipart.Count);
    }

    [Fact]
    public void GetEnumerator_NonGeneric_EnumeratesFrames()
    {
        using var multipart = new MultipartMessage();
        multipart.Add("a");
        multipart.Add("b");
        int count = 0;
        foreach (object item in (IEnumerable)multipart)
        {
            Assert.IsType<Message>(item);
            count++;
        }

        Assert.Equal(2, count);
    }

    [Fact]
    public void Dispose_Frames_DisposesAllAndIsIdempotent()
    {
        var multipart = new MultipartMessage();
        var frame = new Message("x");
        multipart.Add(frame);
        multipart.Dispose();
        multipart.Dispose();
        Assert.False(frame.IsInitialized);
        Assert.Equal(0, multipart.Count);
        Assert.True(multipart.IsEmpty);
    }

    [Fact]
    public void Members_AfterDispose_ThrowObjectDisposedNamedMultipartMessage()
    {
        var multipart = new MultipartMessage();
        multipart.Dispose();
        using var message = new Message();
        Action[] actions =
        [
            () => _ = multipart[0],
            () => _ = multipart.First,
            () => _ = multipart.Last,
            () => multipart.Add(message),
            () => multipart.Add(new byte[1]),
            () => multipart.Add("s"),
            () => multipart.Add("s"u8),
            () => multipart.AddEmptyFrame(),
            () => multipart.Insert(0, message),
            () => multipart.RemoveAt(0),
            () => multipart.Clear(),
            () => multipart.Pop(),
            () => multipart.PopBack(),
            () => multipart.PeekFirst(),
            () => multipart.PeekLast(),
            () => multipart.PeekFirstString(),
            () => multipart.PeekLastString(),
            () => multipart.GetEnumerator(),
            () => ((IEnumerable)multipart).GetEnumerator(),
        ];
        foreach (Action action in actions)
        {
            Assert.Equal("MultipartMessage", Assert.Throws<ObjectDisposedException>(action).ObjectName);
        }
    }

    [Fact]
    public void Add_NullAfterDispose_ThrowsArgumentNullFirst()
    {
        var multipart = new MultipartMessage();
        multipart.Dispose();
        Assert.Throws<ArgumentNullException>(() => multipart.Add((Message)null!));
    }

    [Fact]
    public void Dispose_PooledFrames_ReturnToPool()
    {
        var pool = new MessagePool();
        var multipart = new MultipartMessage();
        multipart.Add(pool.Rent("a"u8));
        multipart.Add(pool.Rent("b"u8));
        multipart.Dispose();
        Assert.Equal(0, pool.GetStatistics().OutstandingBuffers);
    }

    [Fact]
    public void Type_Shape_IsSealedEnumerableDisposable()
    {
        Assert.True(typeof(MultipartMessage).IsSealed);
        Assert.True(typeof(IEnumerable<Message>).IsAssignableFrom(typeof(MultipartMessage)));
        Assert.True(typeof(IDisposable).IsAssignableFrom(typeof(MultipartMessage)));
    }

    [Fact]
    public void Type_PublicSurface_Has22MembersAsInApiTable() => Assert.Equal(22, ApiSurface.CountPublicMembers(typeof(MultipartMessage)));
}
