namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>The socket contract over <c>ipc://</c>: real Unix-domain sockets with generated paths.</summary>
public sealed class IpcSocketContractTests() : SocketContractTests(Transport.Ipc)
{
    protected override void AssertBoundEndpointFormat(string lastEndpoint)
    {
        Assert.StartsWith("ipc://", lastEndpoint, StringComparison.Ordinal);
        Assert.NotEqual("ipc://*", lastEndpoint);
        Assert.True(File.Exists(lastEndpoint["ipc://".Length..]) || lastEndpoint.StartsWith("ipc://@", StringComparison.Ordinal), lastEndpoint);
    }
}
