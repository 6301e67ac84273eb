namespace Managed.Zmq.Tests.Transports;

/// <summary>
/// ipc:// specifics (libzmq 4.3 zmq_ipc): real AF_UNIX sockets at an absolute path, a relative
/// path, Linux's abstract namespace (<c>@name</c>) and a generated path (<c>*</c>); the socket file
/// goes with Unbind and Dispose, a stale file does not block a bind, and a second bind of the
/// same path takes it over.
/// </summary>
public sealed class IpcTransportTests : TransportSockets
{
    [Fact]
    public void Bind_AbsolutePath_SocketFileCreatedAndLastEndpointEqual()
    {
        string path = TestEndpoint.IpcPath("abs");
        var pull = Create(SocketType.Pull);

        pull.Bind("ipc://" + path);

        Assert.Equal("ipc://" + path, pull.GetOptionString(SocketOption.Last_Endpoint));
        Assert.True(IsSocketFile(path), $"{path} is not a socket file");
        AssertDelivers(pull, "ipc://" + path);
    }

    [Fact]
    public void Bind_RelativePath_ResolvedAgainstCurrentDirectory()
    {
        string relative = Path.GetFileName(TestEndpoint.IpcPath("rel"));
        string full = Path.Combine(Environment.CurrentDirectory, relative);
        var pull = Create(SocketType.Pull);

        pull.Bind("ipc://" + relative);

        Assert.Equal("ipc://" + relative, pull.GetOptionString(SocketOption.Last_Endpoint));
        Assert.True(IsSocketFile(full), $"{full} is not a socket file");
        AssertDelivers(pull, "ipc://" + relative);
        AssertDelivers(pull, "ipc://" + full);
        pull.Unbind("ipc://" + relative);
        Assert.False(File.Exists(full), $"{full} left behind by Unbind");
    }

    [Fact]
    public void Bind_AbstractName_NoFileAndReachable()
    {
        Assert.True(OperatingSystem.IsLinux(), "the abstract namespace is Linux-only; this suite runs on Linux");
        string name = "@" + Path.GetFileName(TestEndpoint.IpcPath("abstract"));
        var pull = Create(SocketType.Pull);

        pull.Bind("ipc://" + name);

        Assert.Equal("ipc://" + name, pull.GetOptionString(SocketOption.Last_Endpoint));
        Assert.False(File.Exists(Path.Combine(Environment.CurrentDirectory, name)));
        Assert.False(File.Exists(Path.Combine(Path.GetTempPath(), name)));
        AssertDelivers(pull, "ipc://" + name);
    }

    [Fact]
    public void Bind_AbstractNameTwice_Eaddrinuse()
    {
        // The abstract namespace has no file to unlink, so the kernel refuses the second bind.
        string endpoint = "ipc://@" + Path.GetFileName(TestEndpoint.IpcPath("abstract-taken"));
        Create(SocketType.Pull).Bind(endpoint);

        AssertZmqError(ZmqConstants.EADDRINUSE, () => Create(SocketType.Pull).Bind(endpoint));
    }

    [Fact]
    public void Bind_Wildcard_LastEndpointIsRealSocketFile()
    {
        var pull = Create(SocketType.Pull);

        pull.Bind("ipc://*");

        string endpoint = pull.GetOptionString(SocketOption.Last_Endpoint);
        Assert.StartsWith("ipc://", endpoint, StringComparison.Ordinal);
        string path = endpoint["ipc://".Length..];
        Assert.True(Path.IsPathRooted(path), endpoint);
        Assert.True(IsSocketFile(path), $"{path} is not a socket file");
        AssertDelivers(pull, endpoint);
    }

    [Fact]
    public void Bind_WildcardTwice_DistinctEndpointsBothReachable()
    {
        var pull = Create(SocketType.Pull);
        pull.Bind("ipc://*");
        string first = pull.GetOptionString(SocketOption.Last_Endpoint);

        pull.Bind("ipc://*");
        string second = pull.GetOptionString(SocketOption.Last_Endpoint);

        Assert.NotEqual(first, second);
        AssertDelivers(pull, first);
        AssertDelivers(pull, second);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void BindConnect_PathOf107Octets_Delivers(bool isAbstract)
    {
        string endpoint = "ipc://" + PathOfOctets(107, isAbstract);
        var pull = Create(SocketType.Pull);

        pull.Bind(endpoint);

        AssertDelivers(pull, endpoint);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void BindConnect_PathOf108Octets_Enametoolong(bool isAbstract)
    {
        // sun_path holds 108 octets with the terminating NUL: libzmq refuses a longer path at Bind and at Connect.
        string endpoint = "ipc://" + PathOfOctets(108, isAbstract);

        AssertZmqError(ZmqConstants.ENAMETOOLONG, () => Create(SocketType.Pull).Bind(endpoint));
        AssertZmqError(ZmqConstants.ENAMETOOLONG, () => Create(SocketType.Push).Connect(endpoint));
    }

    [Fact]
    public void BindConnect_AbstractNameEmpty_Einval()
    {
        AssertZmqError(ZmqConstants.EINVAL, () => Create(SocketType.Pull).Bind("ipc://@"));
        AssertZmqError(ZmqConstants.EINVAL, () => Create(SocketType.Push).Connect("ipc://@"));
    }

    [Fact]
    public void Connect_Wildcard_Einval()
    {
        AssertZmqError(ZmqConstants.EINVAL, () => Create(SocketType.Push).Connect("ipc://*"));
    }

    [Fact]
    public void Unbind_ExplicitPath_SocketFileRemoved()
    {
        string path = TestEndpoint.IpcPath("unbind");
        var pull = Create(SocketType.Pull);
        pull.Bind("ipc://" + path);
        Assert.True(File.Exists(path));

        pull.Unbind("ipc://" + path);

        Assert.False(File.Exists(path), $"{path} left behind by Unbind");
    }

    [Fact]
    public void Unbind_WildcardByResolvedEndpoint_SocketFileRemoved()
    {
        var pull = Create(SocketType.Pull);
        pull.Bind("ipc://*");
        string endpoint = pull.GetOptionString(SocketOption.Last_Endpoint);
        string path = endpoint["ipc://".Length..];
        Assert.True(File.Exists(path));

        pull.Unbind(endpoint);

        Assert.False(File.Exists(path), $"{path} left behind by Unbind");
    }

    [Fact]
    public void Dispose_BoundSocket_SocketFilesRemoved()
    {
        string path = TestEndpoint.IpcPath("close");
        var pull = Create(SocketType.Pull);
        pull.Bind("ipc://" + path);
        pull.Bind("ipc://*");
        string generated = pull.GetOptionString(SocketOption.Last_Endpoint)["ipc://".Length..];

        pull.Dispose();

        Assert.False(File.Exists(path), $"{path} left behind by Dispose");
        Assert.False(File.Exists(generated), $"{generated} left behind by Dispose");
    }

    [Fact]
    public void Dispose_ContextWithBoundSocket_SocketFileRemoved()
    {
        string path = TestEndpoint.IpcPath("context-close");
        var context = NewContext();
        var pull = Create(SocketType.Pull, context);
        pull.Bind("ipc://" + path);

        pull.Dispose();
        context.Dispose();

        Assert.False(File.Exists(path), $"{path} left behind after the context closed");
    }

    [Fact]
    public void Bind_StaleSocketFileOfClosedListener_Replaced()
    {
        // A listener that went away without unlinking (as a killed process does) leaves its file behind.
        string path = TestEndpoint.IpcPath("stale");
        using (var dead = new System.Net.Sockets.Socket(System.Net.Sockets.AddressFamily.Unix, System.Net.Sockets.SocketType.Stream, System.Net.Sockets.ProtocolType.Unspecified))
        {
            dead.Bind(new System.Net.Sockets.UnixDomainSocketEndPoint(path));
            dead.Listen(1);
        }

        if (!File.Exists(path))
        {
            // This runtime unlinks on dispose; a plain leftover file stands in for the dead process's.
            File.WriteAllText(path, "stale");
        }

        var pull = Create(SocketType.Pull);

        pull.Bind("ipc://" + path);

        Assert.True(IsSocketFile(path));
        AssertDelivers(pull, "ipc://" + path);
    }

    [Fact]
    public void Bind_StaleRegularFileAtPath_Replaced()
    {
        string path = TestEndpoint.IpcPath("stale-file");
        File.WriteAllText(path, "left over");
        var pull = Create(SocketType.Pull);

        pull.Bind("ipc://" + path);

        Assert.True(IsSocketFile(path));
        AssertDelivers(pull, "ipc://" + path);
    }

    [Fact]
    public void Bind_PathBoundByLiveSocket_SecondTakesOverNewConnections()
    {
        // libzmq unlinks whatever is at the path before binding: the second binder wins the name.
        string endpoint = "ipc://" + TestEndpoint.IpcPath("takeover");
        var first = Create(SocketType.Pull);
        first.Bind(endpoint);
        var early = Create(SocketType.Push);
        early.Connect(endpoint);
        early.Send("to-first");
        Assert.Equal("to-first", first.RecvString());
        var second = Create(SocketType.Pull);

        second.Bind(endpoint);

        var late = Create(SocketType.Push);
        late.Connect(endpoint);
        late.Send("to-second");
        Assert.Equal("to-second", second.RecvString());
        Assert.Null(TryRecvString(first, 0));

        // The first binder keeps the connection it already accepted.
        early.Send("still-first");
        Assert.Equal("still-first", first.RecvString());
    }

    [Theory]
    [InlineData(SocketType.Req, SocketType.Rep)]
    [InlineData(SocketType.Dealer, SocketType.Router)]
    [InlineData(SocketType.Pair, SocketType.Pair)]
    public void Connect_AbstractNameEachPattern_RoundTrips(SocketType client, SocketType server)
    {
        string endpoint = "ipc://@" + Path.GetFileName(TestEndpoint.IpcPath("abstract-rt"));
        var s = Create(server);
        s.Bind(endpoint);
        var c = Create(client);
        c.SetOption(SocketOption.Routing_Id, Support.Bytes.Of("client"));
        c.Connect(endpoint);

        c.Send("ping");
        var request = RecvMessage(s);
        Assert.Equal(server == SocketType.Router ? ["client", "ping"] : ["ping"], request);
        if (server == SocketType.Router)
        {
            SendMessage(s, "client", "pong");
        }
        else
        {
            s.Send("pong");
        }

        Assert.Equal("pong", c.RecvString());
    }

    private void AssertDelivers(Socket pull, string endpoint)
    {
        var push = Create(SocketType.Push);
        push.Connect(endpoint);
        string text = $"via {endpoint}";
        push.Send(text);
        Assert.Equal(text, pull.RecvString());
        push.Dispose();
    }

    /// <summary>True for an entry that exists but cannot be opened as a file: a Unix-domain socket.</summary>
    private static bool IsSocketFile(string path) => File.Exists(path) && !IsRegularFile(path);

    private static bool IsRegularFile(string path)
    {
        // A socket is not readable as a file: opening one fails (ENXIO), a regular file opens.
        try
        {
            using var stream = File.OpenRead(path);
            return true;
        }
        catch (IOException)
        {
            return false;
        }
    }

    /// <summary>
    /// A unique path under /tmp (or abstract name, '@' included) of exactly <paramref name="octets"/> octets; not under
    /// the temporary directory, which may be too long to leave room.
    /// </summary>
    private static string PathOfOctets(int octets, bool isAbstract)
    {
        string start = (isAbstract ? "@" : "/tmp/") + Path.GetFileName(TestEndpoint.IpcPath("long"));
        return start + "-" + new string('x', octets - start.Length - 1);
    }
}
