using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Inproc;

/// <summary>
/// The context's inproc names: a connect to a name nobody binds waits there, and the name is forgotten with the last
/// connect that waited for it, so a process that connects to ever-new names keeps nothing per name.
/// </summary>
public sealed class InprocRegistryTests : TransportSockets
{
    private const int Names = 50;

    [Fact]
    public void Disconnect_LastPendingConnect_NameForgotten()
    {
        var context = NewContext();
        var push = Create(SocketType.Push, context);
        var names = Enumerable.Range(0, Names).Select(_ => TestEndpoint.Inproc("never-bound")).ToArray();
        foreach (string name in names)
        {
            push.Connect(name);
        }

        Assert.Equal(Names, context.Inproc.PendingNameCount);

        foreach (string name in names)
        {
            push.Disconnect(name);
        }

        Assert.Equal(0, context.Inproc.PendingNameCount);
    }

    [Fact]
    public void Close_PendingConnectsWithNothingQueued_NamesForgotten()
    {
        var context = NewContext();
        var dealer = Create(SocketType.Dealer, context);
        for (int i = 0; i < Names; i++)
        {
            dealer.Connect(TestEndpoint.Inproc("never-bound"));
        }

        dealer.Dispose();

        Assert.Equal(0, context.Inproc.PendingNameCount);
    }

    [Fact]
    public void Close_LingerWithQueuedMessage_NameKeptForALaterBind()
    {
        var context = NewContext();
        string name = TestEndpoint.Inproc("bound-later");
        var push = Create(SocketType.Push, context);
        push.SetOption(SocketOption.Linger, -1);
        push.Connect(name);
        push.Connect(TestEndpoint.Inproc("never-bound"));
        Assert.True(push.Send("kept"));

        push.Dispose();

        // libzmq keeps a lingering connect's queued messages for a socket that binds the name later; the
        // other name had nothing queued and is gone.
        Assert.Equal(1, context.Inproc.PendingNameCount);
        var pull = Create(SocketType.Pull, context);
        pull.Bind(name);
        Assert.Equal("kept", pull.RecvString());
        Assert.Equal(0, context.Inproc.PendingNameCount);
    }
}
