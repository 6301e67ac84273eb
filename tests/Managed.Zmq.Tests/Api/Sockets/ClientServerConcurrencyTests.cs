using System.Collections.Concurrent;

namespace Managed.Zmq.Tests.Api.Sockets;

/// <summary>
/// SERVER and CLIENT may be used from several threads at once, as libzmq allows for its draft types: eight threads
/// receive from one SERVER and echo each message to its sender while clients send from their own threads; every
/// message comes back exactly once and intact (no loss, duplicate or torn message).
/// </summary>
public sealed class ClientServerConcurrencyTests : IDisposable
{
    private const int ServerThreads = 8;
    private const int Clients = 4;
    private const int MessagesPerClient = 2_000;
    private const int PayloadSize = 100;

    /// <summary>A deadline for each blocking call and for the whole run: reached only when the test fails.</summary>
    private const int Timeout = 30_000;

    private readonly Context _context = new();
    private readonly List<Socket> _sockets = [];

    [Theory]
    [InlineData("inproc://server-stress-")]
    [InlineData("tcp://127.0.0.1:*")]
    public async Task Server_EightThreadsEchoing_EveryMessageBackOnceAndIntact(string endpoint)
    {
        if (endpoint.StartsWith("inproc", StringComparison.Ordinal))
        {
            endpoint += Guid.NewGuid().ToString("N");
        }

        var server = Create(SocketType.Server);
        server.Bind(endpoint);
        string connectTo = server.GetOptionString(SocketOption.Last_Endpoint);
        var clients = Enumerable.Range(0, Clients).Select(_ => Create(SocketType.Client)).ToArray();
        foreach (var client in clients)
        {
            client.Connect(connectTo);
        }

        var failures = new ConcurrentQueue<string>();
        var echoers = Enumerable.Range(0, ServerThreads).Select(_ => Task.Factory.StartNew(
            () => Echo(server, failures), TaskCreationOptions.LongRunning)).ToArray();
        var senders = Enumerable.Range(0, Clients).Select(c => Task.Factory.StartNew(
            () => SendAndCheck(clients[c], c, failures), TaskCreationOptions.LongRunning)).ToArray();

        // A TimeoutException here: the clients did not get every echo in time.
        await Task.WhenAll(senders).WaitAsync(TimeSpan.FromMilliseconds(Timeout));

        // One stop message per echo thread: a thread that received it receives no more.
        for (int i = 0; i < ServerThreads; i++)
        {
            clients[0].Send("stop");
        }

        await Task.WhenAll(echoers).WaitAsync(TimeSpan.FromMilliseconds(Timeout));
        Assert.Empty(failures);
    }

    private static void Echo(Socket server, ConcurrentQueue<string> failures)
    {
        using var message = new Message();
        while (true)
        {
            try
            {
                server.Recv(message);
                if (message.Size == 4 && message.ToString() == "stop")
                {
                    return;
                }

                using var reply = new Message(message.Data);
                reply.RoutingId = message.RoutingId;
                server.Send(reply);
            }
            catch (ZmqException ex)
            {
                failures.Enqueue("echo: " + ex.Message);
                return;
            }
        }
    }

    private static void SendAndCheck(Socket client, int clientIndex, ConcurrentQueue<string> failures)
    {
        var seen = new bool[MessagesPerClient];
        var receiver = Task.Factory.StartNew(() =>
        {
            for (int i = 0; i < MessagesPerClient; i++)
            {
                byte[] reply = client.RecvBytes();
                int seq = BitConverter.ToInt32(reply, 4);
                if (reply.Length != PayloadSize || BitConverter.ToInt32(reply, 0) != clientIndex || seq < 0 || seq >= MessagesPerClient
                    || !reply.AsSpan().SequenceEqual(Payload(clientIndex, seq)))
                {
                    failures.Enqueue($"client {clientIndex}: torn or foreign reply {Convert.ToHexString(reply)}");
                    return;
                }

                if (seen[seq])
                {
                    failures.Enqueue($"client {clientIndex}: duplicate reply {seq}");
                    return;
                }

                seen[seq] = true;
            }
        }, TaskCreationOptions.LongRunning);

        // The client sends from this thread while another receives from it: CLIENT is thread-safe too.
        for (int seq = 0; seq < MessagesPerClient; seq++)
        {
            client.Send(Payload(clientIndex, seq));
        }

        if (!receiver.Wait(Timeout))
        {
            failures.Enqueue($"client {clientIndex}: replies missing ({seen.Count(s => !s)} of {MessagesPerClient})");
        }
    }

    private static byte[] Payload(int client, int seq)
    {
        var payload = new byte[PayloadSize];
        BitConverter.TryWriteBytes(payload.AsSpan(0), client);
        BitConverter.TryWriteBytes(payload.AsSpan(4), seq);
        for (int i = 8; i < PayloadSize; i++)
        {
            payload[i] = (byte)(client * 31 + seq * 7 + i);
        }

        return payload;
    }

    private Socket Create(SocketType type)
    {
        var socket = new Socket(_context, type);
        socket.SetOption(SocketOption.Linger, 0);
        socket.SetOption(SocketOption.Rcvtimeo, Timeout);
        socket.SetOption(SocketOption.Sndtimeo, Timeout);
        _sockets.Add(socket);
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
