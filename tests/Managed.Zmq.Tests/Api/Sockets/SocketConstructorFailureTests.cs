using System.Runtime.CompilerServices;
using Managed.Zmq.Diagnostics;
using Managed.Zmq.Tests.Api.Monitor;

namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>A Socket constructor that throws leaves nothing behind: no registered socket, and nothing for a finalizer to trip on.</summary>
[Collection(ProcessSocketCountCollection.Name)]
public sealed class SocketConstructorFailureTests
{
    private const int Attempts = 50;

    [Fact]
    public void Constructor_UnsupportedType_ThrowsEinvalAndFinalizerRunsClean()
    {
        using var context = new Context();
        Assert.Equal(ZmqConstants.EINVAL, RefusedConstruction(context, (SocketType)18));

        // Before, the half-built socket's finalizer dereferenced its missing core on the finalizer thread, which ends
        // the process: this test run would stop here.
        GC.Collect();
        GC.WaitForPendingFinalizers();

        using var after = new Socket(context, SocketType.Pair);
        Assert.False(after.HasMore);
    }

    [Fact]
    public void Constructor_ContextShutDown_ThrowsEtermAndKeepsNoSocket()
    {
        using var context = new Context();
        context.Shutdown();
        int before = ZmqMetrics.RegisteredSocketCount;

        for (int i = 0; i < Attempts; i++)
        {
            Assert.Equal(ZmqConstants.ETERM, RefusedConstruction(context, SocketType.Pair));
        }

        // Each refused construction kept its socket's meters registered until a collection ran its finalizer. The
        // margin is for sockets that code outside this test (an earlier test's context closing) opens meanwhile.
        int kept = ZmqMetrics.RegisteredSocketCount - before;
        Assert.True(kept < Attempts / 2, $"{kept} sockets kept by {Attempts} refused constructions");
    }

    [Fact]
    public void Constructor_ContextAtMaxSockets_ThrowsEmfileAndKeepsNoSocket()
    {
        using var context = new Context(ioThreads: 1, maxSockets: 1);
        using var only = new Socket(context, SocketType.Pair);
        int before = ZmqMetrics.RegisteredSocketCount;

        for (int i = 0; i < Attempts; i++)
        {
            Assert.Equal(ZmqConstants.EMFILE, RefusedConstruction(context, SocketType.Pair));
        }

        int kept = ZmqMetrics.RegisteredSocketCount - before;
        Assert.True(kept < Attempts / 2, $"{kept} sockets kept by {Attempts} refused constructions");
    }

    /// <summary>Not inlined, so that no reference to the half-built socket stays on the test's stack.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int RefusedConstruction(Context context, SocketType type) =>
        Assert.Throws<ZmqException>(() => new Socket(context, type)).ErrorNumber;
}
