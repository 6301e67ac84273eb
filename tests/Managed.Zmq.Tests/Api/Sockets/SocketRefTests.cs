namespace Managed.Zmq.Tests.Api.Sockets;

public class SocketRefTests
{
    [Fact]
    public void IsValid_Default_IsFalse() => Assert.False(default(SocketRef).IsValid);

    [Fact]
    public void IsValid_ZeroHandle_IsFalse() => Assert.False(SocketRef.FromHandle(0).IsValid);

    [Theory]
    [InlineData(1)]
    [InlineData(-1)]
    [InlineData(0x7FFF_FFFF)]
    public void IsValid_NonZeroHandle_IsTrue(long handle) => Assert.True(SocketRef.FromHandle((nint)handle).IsValid);

    [Fact]
    public void Equals_SameHandle_AreEqualEverywhere()
    {
        SocketRef a = SocketRef.FromHandle(42);
        SocketRef b = SocketRef.FromHandle(42);
        Assert.True(a.Equals(b));
        Assert.True(a.Equals((object)b));
        Assert.True(a == b);
        Assert.False(a != b);
        Assert.Equal(a.GetHashCode(), b.GetHashCode());
    }

    [Fact]
    public void Equals_DifferentHandle_AreNotEqual()
    {
        SocketRef a = SocketRef.FromHandle(42);
        SocketRef b = SocketRef.FromHandle(43);
        Assert.False(a.Equals(b));
        Assert.False(a == b);
        Assert.True(a != b);
    }

    [Fact]
    public void Equals_OtherType_IsFalse()
    {
        Assert.False(SocketRef.FromHandle(1).Equals((object)1));
        Assert.False(SocketRef.FromHandle(1).Equals(null));
    }

    [Fact]
    public void Type_Shape_IsReadonlyEquatableStruct()
    {
        Assert.True(typeof(SocketRef).IsValueType);
        Assert.True(typeof(IEquatable<SocketRef>).IsAssignableFrom(typeof(SocketRef)));
        Assert.True(typeof(SocketRef).IsDefined(typeof(System.Runtime.CompilerServices.IsReadOnlyAttribute), false));
    }

    [Fact]
    public void Type_PublicSurface_Has7MembersAsInApiTable() => Assert.Equal(7, ApiSurface.CountPublicMembers(typeof(SocketRef)));
}
