using Managed.Zmq.Internal;

namespace Managed.Zmq.Tests.Api.Errors;

public class ZmqExceptionTests
{
    [Theory]
    [InlineData(ErrorCode.ENOENT, "No such file or directory")]
    [InlineData(ErrorCode.EINTR, "Interrupted system call")]
    [InlineData(ErrorCode.EAGAIN, "Resource temporarily unavailable")]
    [InlineData(ErrorCode.EACCES, "Permission denied")]
    [InlineData(ErrorCode.EFAULT, "Bad address")]
    [InlineData(ErrorCode.ENODEV, "No such device")]
    [InlineData(ErrorCode.EINVAL, "Invalid argument")]
    [InlineData(ErrorCode.EMFILE, "Too many open files")]
    [InlineData(ErrorCode.ENAMETOOLONG, "File name too long")]
    [InlineData(ErrorCode.ENOTSOCK, "Socket operation on non-socket")]
    [InlineData(ErrorCode.EMSGSIZE, "Message too long")]
    [InlineData(ErrorCode.EPROTONOSUPPORT, "Protocol not supported")]
    [InlineData(ErrorCode.ENOTSUP, "Operation not supported")]
    [InlineData(ErrorCode.EAFNOSUPPORT, "Address family not supported by protocol")]
    [InlineData(ErrorCode.EADDRINUSE, "Address already in use")]
    [InlineData(ErrorCode.EADDRNOTAVAIL, "Cannot assign requested address")]
    [InlineData(ErrorCode.ENETDOWN, "Network is down")]
    [InlineData(ErrorCode.ENETUNREACH, "Network is unreachable")]
    [InlineData(ErrorCode.ENETRESET, "Network dropped connection on reset")]
    [InlineData(ErrorCode.ECONNABORTED, "Software caused connection abort")]
    [InlineData(ErrorCode.ECONNRESET, "Connection reset by peer")]
    [InlineData(ErrorCode.ENOBUFS, "No buffer space available")]
    [InlineData(ErrorCode.ENOTCONN, "Transport endpoint is not connected")]
    [InlineData(ErrorCode.ETIMEDOUT, "Connection timed out")]
    [InlineData(ErrorCode.ECONNREFUSED, "Connection refused")]
    [InlineData(ErrorCode.EHOSTUNREACH, "No route to host")]
    [InlineData(ErrorCode.EINPROGRESS, "Operation now in progress")]
    [InlineData(ErrorCode.EFSM, "Operation cannot be accomplished in current state")]
    [InlineData(ErrorCode.ENOCOMPATPROTO, "The protocol is not compatible with the socket type")]
    [InlineData(ErrorCode.ETERM, "Context was terminated")]
    [InlineData(ErrorCode.EMTHREAD, "No thread available")]
    [InlineData(ErrorCode.EBUFFERSMALL, "Buffer size is smaller than expected")]
    [InlineData(ErrorCode.ESIZEMISMATCH, "Received size does not match expected size")]
    public void Ctor_ErrorNumber_UsesStandardMessage(ErrorCode code, string expected)
    {
        int number = code == ErrorCode.EAGAIN ? ZmqConstants.EAGAIN : (int)code;
        var ex = new ZmqException(number);
        Assert.Equal(expected, ex.Message);
        Assert.Equal(number, ex.ErrorNumber);
        Assert.Equal(code, ex.ErrorCode);
    }

    [Fact]
    public void Ctor_UnknownNumber_UsesUnknownErrorText()
    {
        var ex = new ZmqException(12345);
        Assert.Equal("Unknown error 12345", ex.Message);
        Assert.Equal((ErrorCode)12345, ex.ErrorCode);
    }

    [Fact]
    public void Ctor_NumberAndMessage_KeepsCallerText()
    {
        var ex = new ZmqException(ZmqConstants.EINVAL, "custom");
        Assert.Equal("custom", ex.Message);
        Assert.Equal(ZmqConstants.EINVAL, ex.ErrorNumber);
        Assert.Equal(ErrorCode.EINVAL, ex.ErrorCode);
        Assert.Null(ex.InnerException);
    }

    [Fact]
    public void ErrorCode_PlatformEagain_NormalisesToEAGAIN()
    {
        var ex = new ZmqException(ZmqConstants.EAGAIN);
        Assert.Equal(ErrorCode.EAGAIN, ex.ErrorCode);
        Assert.Equal("Resource temporarily unavailable", ex.Message);
    }

    [Fact]
    public void ParameterlessCtor_AfterRecordedError_ReadsThreadLastError()
    {
        // Run on a fresh thread so the thread-static starts from a known state.
        ZmqException? before = null;
        ZmqException? after = null;
        var thread = new Thread(() =>
        {
            before = new ZmqException();
            LastError.Record(ZmqConstants.ETERM);
            after = new ZmqException();
        });
        thread.Start();
        thread.Join();
        Assert.Equal(0, before!.ErrorNumber);
        Assert.Equal(ZmqConstants.ETERM, after!.ErrorNumber);
        Assert.Equal("Context was terminated", after.Message);
    }

    [Fact]
    public void ThrowHelper_ThrowZmqException_RecordsLastErrorAndThrows()
    {
        var ex = Assert.Throws<ZmqException>(() => ThrowHelper.ThrowZmqException(ZmqConstants.EFSM));
        Assert.Equal(ZmqConstants.EFSM, ex.ErrorNumber);
        Assert.Equal(ZmqConstants.EFSM, LastError.Value);
        Assert.Equal(ZmqConstants.EFSM, new ZmqException().ErrorNumber);
    }

    [Fact]
    public void Type_Shape_IsUnsealedExceptionWithThreeCtors()
    {
        Assert.False(typeof(ZmqException).IsSealed);
        Assert.Equal(typeof(Exception), typeof(ZmqException).BaseType);
        Assert.Equal(3, typeof(ZmqException).GetConstructors().Length);
    }

    [Fact]
    public void Type_PublicSurface_Has5MembersAsInApiTable() => Assert.Equal(5, ApiSurface.CountPublicMembers(typeof(ZmqException)));
}
