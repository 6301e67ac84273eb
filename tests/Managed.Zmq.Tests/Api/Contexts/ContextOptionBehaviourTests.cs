namespace Managed.Zmq.Tests.Api.Contexts;

/// <summary>What the context options do, against libzmq 4.3.4's behaviour: when MaxSockets is read, and the I/O thread names.</summary>
public sealed class ContextOptionBehaviourTests
{
    [Fact]
    public void MaxSockets_SetBeforeFirstSocket_LimitsSockets()
    {
        using var context = new Context();
        context.SetOption(ContextOption.MaxSockets, 1);

        using var first = new Socket(context, SocketType.Pair);
        var refused = Assert.Throws<ZmqException>(() => new Socket(context, SocketType.Pair).Dispose());

        Assert.Equal(ZmqConstants.EMFILE, refused.ErrorNumber);
    }

    [Fact]
    public void MaxSockets_SetAfterFirstSocket_ReadsBackButDoesNotLimit()
    {
        // libzmq sizes its socket slots once, when the first socket starts the context.
        using var context = new Context();
        using var first = new Socket(context, SocketType.Pair);

        context.SetOption(ContextOption.MaxSockets, 1);
        using var second = new Socket(context, SocketType.Pair);

        Assert.Equal(1, context.GetOption(ContextOption.MaxSockets));
    }

    [Fact]
    public void MaxSockets_RaisedAfterFirstSocket_KeepsTheFirstLimit()
    {
        using var context = new Context(ioThreads: 1, maxSockets: 1);
        using var first = new Socket(context, SocketType.Pair);

        context.SetOption(ContextOption.MaxSockets, 10);

        var refused = Assert.Throws<ZmqException>(() => new Socket(context, SocketType.Pair).Dispose());
        Assert.Equal(ZmqConstants.EMFILE, refused.ErrorNumber);
    }

    [Fact]
    public void ThreadNamePrefix_SetBeforeFirstBind_PrefixesIoThreadNames()
    {
        int prefix = Random.Shared.Next(100_000, 999_999);
        using var context = new Context();
        context.SetOption(ContextOption.ThreadNamePrefix, prefix);
        using var pull = new Socket(context, SocketType.Pull);
        pull.SetOption(SocketOption.Linger, 0);

        pull.Bind("tcp://127.0.0.1:*");

        Assert.Equal(prefix, context.GetOption(ContextOption.ThreadNamePrefix));
        // Linux keeps the first 15 bytes of the name, "NNNNNN/Managed.Zmq I/O 0".
        string shown = $"{prefix}/Managed.Zmq I/O 0"[..15];
        Assert.Contains(shown, ThreadNames());
    }

    /// <summary>The OS names of this process's threads (Linux keeps the first 15 bytes).</summary>
    private static List<string> ThreadNames()
    {
        var names = new List<string>();
        foreach (string task in Directory.GetDirectories("/proc/self/task"))
        {
            try
            {
                names.Add(File.ReadAllText(Path.Combine(task, "comm")).TrimEnd('\n'));
            }
            catch (IOException)
            {
                // The thread ended while we looked.
            }
        }

        return names;
    }
}
