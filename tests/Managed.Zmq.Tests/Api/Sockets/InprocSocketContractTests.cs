namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>
/// The socket contract over <c>inproc://</c>: the same patterns, timeouts, HWM and teardown as over
/// tcp and ipc, with no wire in between. Every endpoint is a fresh name, so tests never collide.
/// </summary>
public sealed class InprocSocketContractTests() : SocketContractTests(Transport.Inproc)
{
    protected override void AssertBoundEndpointFormat(string lastEndpoint) =>
        Assert.Matches(@"^inproc://contract-[0-9]+-[0-9]+$", lastEndpoint);
}
