#if !INTEROP_WITHOUT_CORE
using System.Net;
using System.Net.Sockets;
using System.Text;
using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests.Legacy;

/// <summary>
/// A ZMTP 1.0 peer (RFC 13, a 0MQ 2.x node) played by a script on a raw TCP connection, the same script against
/// libzmq 4.3 and against us: every octet the script receives, and every message the socket receives, must be the
/// same. No ZMTP 1.0 implementation is packaged anywhere to test against, so libzmq's answers are the reference.
/// </summary>
public sealed class Zmtp10DifferentialTests
{
    [Fact]
    public Task RouterWithRoutingId_Zmtp10DealerConnects_SameOctetsAsLibzmq() => Deadline.Run(() => AssertSame(peer =>
    {
        var log = new List<string>();
        using var router = peer.Socket(SocketType.Router);
        router.SetOption(LibZmq.ZMQ_ROUTING_ID, "abc"u8.ToArray());
        using var raw = Raw.Connect(router.BindEphemeral());
        raw.Send([.. Frame("peer"), .. Frame("", more: true), .. Frame("hello")]);
        log.Add(raw.Read(13));
        log.Add(Show(router.RecvMessage()));
        router.SendMessage("peer"u8.ToArray(), [], "world"u8.ToArray(), Long);
        log.Add(raw.Read(2 + 7 + 10 + Long.Length));
        return log;
    }));

    [Fact]
    public Task XPub_Zmtp10SubConnects_SamePhantomSubscriptionAndOctets() => Deadline.Run(() => AssertSame(peer =>
    {
        var log = new List<string>();
        using var xpub = peer.Socket(SocketType.XPub);
        using var raw = Raw.Connect(xpub.BindEphemeral());
        raw.Send(Frame(""));
        log.Add(raw.Read(10));
        log.Add(Show(xpub.RecvMessage()));
        xpub.SendMessage("topic"u8.ToArray(), Long);
        log.Add(raw.Read(7 + 10 + Long.Length));
        return log;
    }));

    [Fact]
    public Task Router_Revision0PeerConnects_SameGreetingAndFrames() => Deadline.Run(() => AssertSame(peer =>
    {
        var log = new List<string>();
        using var router = peer.Socket(SocketType.Router);
        using var raw = Raw.Connect(router.BindEphemeral());
        raw.Send([0xFF, 0, 0, 0, 0, 0, 0, 0, 1, 0x7F, 0x00, (byte)SocketType.Dealer, .. Frame("peer")]);
        log.Add(raw.Read(14));
        raw.Send([.. Frame("", more: true), .. Frame("hi")]);
        log.Add(Show(router.RecvMessage()));
        router.SendMessage("peer"u8.ToArray(), [], "yo"u8.ToArray());
        log.Add(raw.Read(2 + 4));
        return log;
    }));

    [Fact]
    public Task SubConnects_Zmtp10PubBinds_SameSubscriptionOctetsAndFiltering() => Deadline.Run(() => AssertSame(peer =>
    {
        var log = new List<string>();
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        using var sub = peer.Socket(SocketType.Sub);
        sub.Subscribe("A"u8.ToArray());
        sub.Connect($"tcp://127.0.0.1:{((IPEndPoint)listener.LocalEndpoint).Port}");
        Assert.True(listener.Server.Poll((int)Timeouts.Io.TotalMicroseconds, SelectMode.SelectRead), "the SUB connects");
        using var raw = new Raw(listener.AcceptSocket());
        raw.Send(Frame(""));
        log.Add(raw.Read(10 + 4));
        raw.Send([.. Frame("B-skipped"), .. Frame("A-kept")]);
        log.Add(Show(sub.RecvMessage()));
        sub.Unsubscribe("A"u8.ToArray());
        log.Add(raw.Read(4));
        return log;
    }));

    private static readonly byte[] Long = [.. Enumerable.Range(0, 300).Select(i => (byte)i)];

    /// <summary>Runs <paramref name="script"/> against libzmq, then against us, and compares the transcripts.</summary>
    private static void AssertSame(Func<IPeer, List<string>> script)
    {
        List<string> reference;
        using (var libzmq = new NativeContext())
        {
            reference = script(libzmq);
        }

        List<string> ours;
        using (var managed = new ManagedPeer())
        {
            ours = script(managed);
        }

        Assert.Equal(reference, ours);
    }

    /// <summary>An RFC 13 frame, written out by hand: length (body + flags octet), flags (MORE), body.</summary>
    private static byte[] Frame(string text, bool more = false)
    {
        byte[] body = Encoding.ASCII.GetBytes(text);
        return [(byte)(body.Length + 1), more ? (byte)1 : (byte)0, .. body];
    }

    private static string Show(byte[][] frames) => string.Join("|", frames.Select(Convert.ToHexString));

    /// <summary>The script's end of the TCP connection; every read is bounded.</summary>
    private sealed class Raw(System.Net.Sockets.Socket socket) : IDisposable
    {
        public static Raw Connect(string endpoint)
        {
            var socket = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
            socket.Connect(IPEndPoint.Parse(endpoint["tcp://".Length..]));
            return new Raw(socket);
        }

        public void Send(byte[] bytes) => socket.Send(bytes);

        /// <summary>Exactly <paramref name="count"/> octets, as hex.</summary>
        public string Read(int count)
        {
            var buffer = new byte[count];
            socket.ReceiveTimeout = (int)Timeouts.Io.TotalMilliseconds;
            for (int read = 0; read < count;)
            {
                int n = socket.Receive(buffer, read, count - read, SocketFlags.None);
                Assert.True(n > 0, $"the socket closed after {read} of {count} octets");
                read += n;
            }

            return Convert.ToHexString(buffer);
        }

        public void Dispose() => socket.Dispose();
    }
}
#endif
