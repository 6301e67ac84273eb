using Managed.Zmq.Patterns;
using Managed.Zmq.Sockets;

namespace Managed.Zmq.Tests.Sockets;

/// <summary>The one status → errno table that the blocking, non-blocking and async calls share.</summary>
public sealed class StatusErrorsTests
{
    public static TheoryData<int, int> SendCases => new()
    {
        { (int)SendStatus.WouldBlock, ZmqConstants.EAGAIN },
        { (int)SendStatus.NotSupported, ZmqConstants.ENOTSUP },
        { (int)SendStatus.InvalidState, ZmqConstants.EFSM },
        { (int)SendStatus.HostUnreachable, ZmqConstants.EHOSTUNREACH },
        { (int)SendStatus.Terminated, ZmqConstants.ETERM },
    };

    public static TheoryData<int, int> RecvCases => new()
    {
        { (int)RecvStatus.WouldBlock, ZmqConstants.EAGAIN },
        { (int)RecvStatus.NotSupported, ZmqConstants.ENOTSUP },
        { (int)RecvStatus.InvalidState, ZmqConstants.EFSM },
        { (int)RecvStatus.Terminated, ZmqConstants.ETERM },
    };

    [Theory]
    [MemberData(nameof(SendCases))]
    public void CreateSend_Failure_ZmqExceptionWithLibzmqErrno(int status, int errno)
    {
        Assert.Equal(errno, StatusErrors.ToErrno((SendStatus)status));
        var exception = Assert.IsType<ZmqException>(StatusErrors.Create((SendStatus)status));
        Assert.Equal(errno, exception.ErrorNumber);
    }

    [Theory]
    [MemberData(nameof(RecvCases))]
    public void CreateRecv_Failure_ZmqExceptionWithLibzmqErrno(int status, int errno)
    {
        Assert.Equal(errno, StatusErrors.ToErrno((RecvStatus)status));
        var exception = Assert.IsType<ZmqException>(StatusErrors.Create((RecvStatus)status));
        Assert.Equal(errno, exception.ErrorNumber);
    }

    [Fact]
    public void Create_Closed_ObjectDisposedForBothDirections()
    {
        Assert.IsType<ObjectDisposedException>(StatusErrors.Create(SendStatus.Closed));
        Assert.IsType<ObjectDisposedException>(StatusErrors.Create(RecvStatus.Closed));
    }

    [Fact]
    public void Throw_SendAndRecv_ThrowWhatCreateReturns()
    {
        var send = Assert.Throws<ZmqException>(() => StatusErrors.Throw(SendStatus.HostUnreachable));
        var recv = Assert.Throws<ZmqException>(() => StatusErrors.Throw(RecvStatus.InvalidState));

        Assert.Equal(ZmqConstants.EHOSTUNREACH, send.ErrorNumber);
        Assert.Equal(ZmqConstants.EFSM, recv.ErrorNumber);
    }
}
