namespace Managed.Zmq.Tests.Api.Messages;

public class MessageSizeTests
{
    [Theory]
    [InlineData(MessageSize.B16, 16)]
    [InlineData(MessageSize.B32, 32)]
    [InlineData(MessageSize.B64, 64)]
    [InlineData(MessageSize.B128, 128)]
    [InlineData(MessageSize.B256, 256)]
    [InlineData(MessageSize.B512, 512)]
    [InlineData(MessageSize.K1, 1024)]
    [InlineData(MessageSize.K2, 2048)]
    [InlineData(MessageSize.K4, 4096)]
    [InlineData(MessageSize.K8, 8192)]
    [InlineData(MessageSize.K16, 16384)]
    [InlineData(MessageSize.K32, 32768)]
    [InlineData(MessageSize.K64, 65536)]
    [InlineData(MessageSize.K128, 131072)]
    [InlineData(MessageSize.K256, 262144)]
    [InlineData(MessageSize.K512, 524288)]
    [InlineData(MessageSize.M1, 1048576)]
    [InlineData(MessageSize.M2, 2097152)]
    [InlineData(MessageSize.M4, 4194304)]
    public void Member_Value_IsBucketCapacity(MessageSize size, int expected) => Assert.Equal(expected, (int)size);

    [Fact]
    public void Type_Shape_Has19IntMembers()
    {
        Assert.Equal(typeof(int), Enum.GetUnderlyingType(typeof(MessageSize)));
        Assert.Equal(19, Enum.GetNames<MessageSize>().Length);
    }
}
