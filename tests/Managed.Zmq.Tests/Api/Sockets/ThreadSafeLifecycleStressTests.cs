using System.Collections.Concurrent;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>
/// The thread-safe types (SERVER, PEER) take bind, connect, unbind, disconnect, option writes and reads, the peer
/// listing and Dispose from several threads at once, while other threads send and receive on the same socket, as
/// libzmq's thread-safe sockets do (each call under the socket's lock). Every echo still arrives exactly once, no
/// call fails with anything but the errors its race allows, and nothing hangs.
/// </summary>
public sealed class ThreadSafeLifecycleStressTests : IDisposable
{
    private const int LifecycleRounds = 300;
    private const int MinimumMessages = 1_000;
    private const int Echoers = 2;

    private static readonly byte[] End = "end"u8.ToArray();
    private static readonly byte[] Stop = "stop!"u8.ToArray();

    /// <summary>A deadline for each blocking call and for the whole run: reached only when the test fails.</summary>
    private const int Timeout = 30_000;

    private readonly Context _context = new();
    private readonly List<Socket> _sockets = [];

    [Theory]
    [InlineData(SocketType.Server)]
    [InlineData(SocketType.Peer)]
    public async Task LifecycleCalls_ConcurrentWithTraffic_EveryEchoOnceNoFailure(SocketType type)
    {
        var socket = Create(type);
        socket.Bind("tcp://127.0.0.1:*");
        string endpoint = socket.GetOptionString(SocketOption.Last_Endpoint);
        var partner = Create(type == SocketType.Server ? SocketType.Client : SocketType.Peer);
        uint toSocket = type == SocketType.Peer ? partner.ConnectPeer(endpoint) : Connect(partner, endpoint);

        var failures = new ConcurrentQueue<string>();
        var echoers = Enumerable.Range(0, Echoers).Select(_ => Run(() => Echo(socket, failures))).ToArray();

        // Traffic runs for as long as the lifecycle calls do, and the peer listing for as long too.
        using var lifecycleDone = new CancellationTokenSource();
        int sent = 0;
        var sender = Run(() =>
        {
            while (!lifecycleDone.IsCancellationRequested || sent < MinimumMessages)
            {
                SendTo(partner, toSocket, BitConverter.GetBytes(sent));
                sent++;
            }

            SendTo(partner, toSocket, End);
        });
        var receiver = Run(() => ReceiveEchoes(partner, () => Volatile.Read(ref sent), failures));
        var lifecycle = new[]
        {
            Run(() => BindUnbind(socket, failures)),
            Run(() => ConnectDisconnect(socket, type, failures)),
        };
        var observer = Run(() => OptionsAndPeers(socket, lifecycleDone.Token, failures));

        await Task.WhenAll(lifecycle).WaitAsync(TimeSpan.FromMilliseconds(Timeout));
        await lifecycleDone.CancelAsync();
        await Task.WhenAll(sender, receiver, observer).WaitAsync(TimeSpan.FromMilliseconds(Timeout));

        // One stop message per echo thread: a thread that received it receives no more.
        for (int i = 0; i < Echoers; i++)
        {
            SendTo(partner, toSocket, Stop);
        }

        await Task.WhenAll(echoers).WaitAsync(TimeSpan.FromMilliseconds(Timeout));
        Assert.Empty(failures);
    }

    [Theory]
    [InlineData(SocketType.Server)]
    [InlineData(SocketType.Client)]
    [InlineData(SocketType.Peer)]
    public async Task Dispose_WhileOtherThreadsBlockAndBind_AllEndWithObjectDisposed(SocketType type)
    {
        var socket = new Socket(_context, type);
        _sockets.Add(socket);
        socket.SetOption(SocketOption.Linger, 0);
        socket.SetOption(SocketOption.Rcvtimeo, Timeout);
        socket.Bind(TestEndpoint.Inproc("ts-dispose"));

        var unexpected = new ConcurrentQueue<string>();
        using var started = new CountdownEvent(3);
        var blocked = Enumerable.Range(0, 2).Select(_ => Run(() =>
        {
            started.Signal();
            Expect(unexpected, () => socket.RecvBytes());
        })).ToArray();
        var binder = Run(() =>
        {
            started.Signal();
            while (true)
            {
                string name = TestEndpoint.Inproc("ts-dispose-loop");
                if (!Expect(unexpected, () =>
                {
                    socket.Bind(name);
                    socket.Unbind(name);
                    socket.SetOption(SocketOption.Sndhwm, 100);
                }))
                {
                    return;
                }
            }
        });

        Assert.True(started.Wait(Timeout), "the threads did not start");
        socket.Dispose();

        await Task.WhenAll([.. blocked, binder]).WaitAsync(TimeSpan.FromMilliseconds(Timeout));
        Assert.Empty(unexpected);
    }

    /// <summary>Runs <paramref name="call"/>: true when it returned, false when it met the disposed socket; anything else is recorded.</summary>
    private static bool Expect(ConcurrentQueue<string> unexpected, Action call)
    {
        try
        {
            call();
            return true;
        }
        catch (ObjectDisposedException)
        {
            return false;
        }
        catch (Exception ex)
        {
            unexpected.Enqueue(ex.ToString());
            return false;
        }
    }

    private static void Echo(Socket socket, ConcurrentQueue<string> failures)
    {
        using var message = new Message();
        while (true)
        {
            try
            {
                socket.Recv(message);
                if (message.Data.SequenceEqual(Stop))
                {
                    return;
                }

                using var reply = new Message(message.Data) { RoutingId = message.RoutingId };
                socket.Send(reply);
            }
            catch (ZmqException ex)
            {
                failures.Enqueue("echo: " + ex.Message);
                return;
            }
        }
    }

    /// <summary>Receives echoes until the end marker came back and every message sent before it too.</summary>
    private static void ReceiveEchoes(Socket partner, Func<int> sentSoFar, ConcurrentQueue<string> failures)
    {
        var seen = new HashSet<int>();
        bool ended = false;
        while (!ended || seen.Count < sentSoFar())
        {
            byte[] echo;
            try
            {
                echo = partner.RecvBytes();
            }
            catch (ZmqException ex)
            {
                failures.Enqueue($"receiver: {ex.Message} after {seen.Count} echoes");
                return;
            }

            if (echo.AsSpan().SequenceEqual(End))
            {
                ended = true;
                continue;
            }

            int seq = echo.Length == 4 ? BitConverter.ToInt32(echo) : -1;
            if (seq < 0 || !seen.Add(seq))
            {
                failures.Enqueue($"torn, foreign or duplicate echo {Convert.ToHexString(echo)}");
                return;
            }
        }
    }

    private static void SendTo(Socket socket, uint routingId, ReadOnlySpan<byte> payload)
    {
        using var message = new Message(payload);
        if (routingId != 0)
        {
            message.RoutingId = routingId;
        }

        socket.Send(message);
    }

    private static void BindUnbind(Socket socket, ConcurrentQueue<string> failures)
    {
        for (int i = 0; i < LifecycleRounds; i++)
        {
            string inproc = TestEndpoint.Inproc("ts-stress");
            string ipc = "ipc://" + TestEndpoint.IpcPath("ts-stress");
            Record(failures, "bind/unbind", () =>
            {
                socket.Bind(inproc);
                socket.Bind(ipc);
                socket.Unbind(inproc);
                socket.Unbind(ipc);
            });
        }
    }

    private static void ConnectDisconnect(Socket socket, SocketType type, ConcurrentQueue<string> failures)
    {
        for (int i = 0; i < LifecycleRounds; i++)
        {
            string inproc = TestEndpoint.Inproc("ts-stress-connect");
            string tcp = TestEndpoint.Unbound(Transport.Tcp, "ts-stress-connect");
            Record(failures, "connect/disconnect", () =>
            {
                if (type == SocketType.Peer)
                {
                    uint id = socket.ConnectPeer(inproc);
                    using var queued = new Message("queued") { RoutingId = id };
                    socket.Send(queued, SendFlags.DontWait);
                }
                else
                {
                    socket.Connect(inproc);
                }

                socket.Connect(tcp);
                socket.Disconnect(inproc);
                socket.Disconnect(tcp);
            });
        }
    }

    private static void OptionsAndPeers(Socket socket, CancellationToken until, ConcurrentQueue<string> failures)
    {
        for (int i = 0; !until.IsCancellationRequested; i++)
        {
            Record(failures, "options/peers", () =>
            {
                socket.SetOption(SocketOption.Sndhwm, 1000 + (i % 1000));
                socket.SetOption(SocketOption.Routing_Id, [1, (byte)i]);
                socket.SetOption(SocketOption.Rcvtimeo, Timeout);
                _ = socket.GetOption<int>(SocketOption.Sndhwm);
                _ = socket.GetOptionString(SocketOption.Last_Endpoint);
                _ = socket.GetOption<int>(SocketOption.Events);
                foreach (var peer in socket.GetPeers())
                {
                    _ = peer.MessageRoutingId;
                }
            });
        }
    }

    private static void Record(ConcurrentQueue<string> failures, string what, Action call)
    {
        try
        {
            call();
        }
        catch (Exception ex)
        {
            failures.Enqueue($"{what}: {ex}");
        }
    }

    /// <summary>CLIENT: connects and returns 0 (its sends carry no routing id).</summary>
    private static uint Connect(Socket client, string endpoint)
    {
        client.Connect(endpoint);
        return 0;
    }

    private static Task Run(Action action) => Task.Factory.StartNew(action, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);

    private Socket Create(SocketType type)
    {
        var socket = new Socket(_context, type);
        _sockets.Add(socket);
        socket.SetOption(SocketOption.Linger, 0);
        socket.SetOption(SocketOption.Rcvtimeo, Timeout);
        socket.SetOption(SocketOption.Sndtimeo, Timeout);
        return socket;
    }

    public void Dispose()
    {
        foreach (var socket in _sockets)
        {
            socket.Dispose();
        }

        _context.Dispose();
    }
}
