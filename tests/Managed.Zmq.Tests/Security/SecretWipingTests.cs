using System.Collections.Concurrent;
using Managed.Zmq.Security;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Security;

/// <summary>
/// Secrets do not outlive their connection: once a CURVE or PLAIN connection has closed,
/// every per-connection buffer that held a secret (the connection's copy of the long-term CURVE
/// secret, session and transient keys, the PLAIN password on either side) is all zeros, while the
/// socket's own options keep their keys for the next connection.
/// </summary>
public sealed class SecretWipingTests
{
    private const int Timeout = 5000;

    [Fact]
    public void Close_CurveConnection_EverySecretBufferZero()
    {
        using var context = new Context();
        var (serverPublic, serverSecret) = Curve.GenerateKeypair();
        var (clientPublic, clientSecret) = Curve.GenerateKeypair();
        using var mechanisms = new DisposedMechanisms();
        var server = NewSocket(context, SocketType.Router, mechanisms.ServerId);
        using (server)
        {
            server.SetOption(SocketOption.Curve_Server, 1);
            server.SetOption(SocketOption.Curve_Publickey, serverPublic);
            server.SetOption(SocketOption.Curve_Secretkey, serverSecret);
            server.Bind("tcp://127.0.0.1:*");
            using (var client = NewSocket(context, SocketType.Dealer, mechanisms.ClientId))
            {
                client.SetOption(SocketOption.Curve_Serverkey, serverPublic);
                client.SetOption(SocketOption.Curve_Publickey, clientPublic);
                client.SetOption(SocketOption.Curve_Secretkey, clientSecret);
                RoundTrip(server, client);
            }

            var (serverSide, clientSide) = mechanisms.WaitForBoth();
            Assert.IsType<CurveServer>(serverSide);
            Assert.IsType<CurveClient>(clientSide);
            AssertWiped(serverSide, expectedBuffers: 3);
            AssertWiped(clientSide, expectedBuffers: 3);
            AssertAllZero(serverSide.Settings.CurveSecretKey, 32, "the server connection's copy of its long-term secret");
            AssertAllZero(clientSide.Settings.CurveSecretKey, 32, "the client connection's copy of its long-term secret");

            // Only the connection's copy is wiped: the socket still has its key for the next one.
            var stored = new byte[32];
            Assert.Equal(32, server.GetOption(SocketOption.Curve_Secretkey, stored));
            Assert.Equal(Z85.Decode(serverSecret), stored);
        }
    }

    [Fact]
    public void Close_PlainConnectionThroughZapAuthenticator_PasswordCopiesZero()
    {
        using var context = new Context();
        using var auth = new ZapAuthenticator(context);
        auth.ConfigurePlain("*", new Dictionary<string, string> { ["admin"] = "secret" });
        using var mechanisms = new DisposedMechanisms();
        using (var server = NewSocket(context, SocketType.Router, mechanisms.ServerId))
        {
            server.SetOption(SocketOption.Plain_Server, 1);
            server.Bind("tcp://127.0.0.1:*");
            using (var client = NewSocket(context, SocketType.Dealer, mechanisms.ClientId))
            {
                client.SetOption(SocketOption.Plain_Username, "admin");
                client.SetOption(SocketOption.Plain_Password, "secret");
                RoundTrip(server, client);

                // Only the connection's copy is wiped: the socket keeps its password for the next one.
                Assert.Equal("secret", client.GetOptionString(SocketOption.Plain_Password));
            }

            var (serverSide, clientSide) = mechanisms.WaitForBoth();
            Assert.IsType<PlainServer>(serverSide);
            Assert.IsType<PlainClient>(clientSide);

            // The server's copy of the password ("secret", 6 octets); the client's HELLO frame.
            AssertWiped(serverSide, expectedBuffers: 1);
            Assert.Equal(6, serverSide.SecretBuffers.Single().Length);
            AssertWiped(clientSide, expectedBuffers: 1);
            AssertAllZero(clientSide.Settings.PlainPassword, 6, "the client connection's copy of its password");
            Assert.Empty(serverSide.Settings.PlainPassword);
        }
    }

    private static Socket NewSocket(Context context, SocketType type, byte[] routingId)
    {
        var socket = new Socket(context, type);
        socket.SetOption(SocketOption.Linger, 0);
        socket.SetOption(SocketOption.Rcvtimeo, Timeout);
        socket.SetOption(SocketOption.Sndtimeo, Timeout);
        socket.SetOption(SocketOption.Routing_Id, routingId);
        return socket;
    }

    /// <summary>A message from client to server: both handshakes are complete and traffic has flowed.</summary>
    private static void RoundTrip(Socket server, Socket client)
    {
        client.Connect(server.GetOptionString(SocketOption.Last_Endpoint));
        Assert.True(client.Send("hello"));
        server.RecvBytes();
        Assert.Equal("hello", server.RecvString());
    }

    private static void AssertWiped(MechanismBase mechanism, int expectedBuffers)
    {
        var buffers = mechanism.SecretBuffers.ToList();
        Assert.Equal(expectedBuffers, buffers.Count);
        foreach (var buffer in buffers)
        {
            AssertAllZero(buffer, buffer.Length, $"a secret buffer of {mechanism.GetType().Name}");
        }
    }

    private static void AssertAllZero(byte[] buffer, int expectedLength, string what)
    {
        Assert.Equal(expectedLength, buffer.Length);
        Assert.True(buffer.AsSpan().IndexOfAnyExcept((byte)0) < 0, $"{what} was not wiped");
    }

    /// <summary>Collects, through the mechanisms' test hook, the mechanisms of this test's two sockets (told apart by their routing ids).</summary>
    private sealed class DisposedMechanisms : IDisposable
    {
        private readonly ConcurrentQueue<MechanismBase> _seen = new();

        public DisposedMechanisms()
        {
            MechanismBase.DisposedForTests += OnDisposed;
        }

        public byte[] ServerId { get; } = Guid.NewGuid().ToByteArray();

        public byte[] ClientId { get; } = Guid.NewGuid().ToByteArray();

        /// <summary>Waits until both sides' connections have ended and disposed their mechanisms.</summary>
        public (MechanismBase Server, MechanismBase Client) WaitForBoth()
        {
            Eventually.True(() => Find(ServerId) is not null && Find(ClientId) is not null, "both connections disposed their mechanisms", Timeout);
            return (Find(ServerId)!, Find(ClientId)!);
        }

        public void Dispose() => MechanismBase.DisposedForTests -= OnDisposed;

        private MechanismBase? Find(byte[] routingId) => _seen.SingleOrDefault(m => m.Settings.RoutingId.AsSpan().SequenceEqual(routingId));

        private void OnDisposed(MechanismBase mechanism)
        {
            if (mechanism.Settings.RoutingId.AsSpan().SequenceEqual(ServerId) || mechanism.Settings.RoutingId.AsSpan().SequenceEqual(ClientId))
            {
                _seen.Enqueue(mechanism);
            }
        }
    }
}
