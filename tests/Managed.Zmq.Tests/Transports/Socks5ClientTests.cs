using System.Buffers;
using System.IO.Pipelines;
using Managed.Zmq.Tests.Support;
using Managed.Zmq.Transports;

namespace Managed.Zmq.Tests.Transports;

/// <summary>
/// The SOCKS5 client handshake (RFC 1928, RFC 1929) against a scripted proxy with no socket: the octets it
/// sends, the replies it accepts, and that it reads no further than the reply, because the target's
/// ZMTP greeting may come right behind it and belongs to the ZMTP handshake.
/// </summary>
public sealed class Socks5ClientTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(10);

    /// <summary>The start of a ZMTP 3 greeting, as the target would send it through the tunnel.</summary>
    private static readonly byte[] s_greeting = [0xFF, 0, 0, 0, 0, 0, 0, 0, 1, 0x7F, 3, 1];

    [Fact]
    public async Task TryConnectAsync_Ipv4ReplyFollowedByGreeting_TunnelOpenAndGreetingLeftUnread()
    {
        var proxy = new ScriptedProxy([5, 0], [5, 0, 0, 1, 10, 0, 0, 1, 0x1F, 0x90], s_greeting);

        bool open = await Socks5Client.TryConnectAsync(proxy.Transport, "192.0.2.7", 5555, [], [])
            .AsTask().WaitAsync(s_timeout);

        Assert.True(open);
        Assert.Equal([5, 1, 0, 5, 1, 0, 1, 192, 0, 2, 7, 0x15, 0xB3], await proxy.SentAsync());
        Assert.Equal(s_greeting, await proxy.ReceiveRestAsync(s_greeting.Length));
    }

    [Fact]
    public async Task TryConnectAsync_HostNameWithCredentials_AuthenticatesAndAsksForTheName()
    {
        byte[] name = "zmq.example"u8.ToArray();
        var proxy = new ScriptedProxy([5, 2], [1, 0], [5, 0, 0, 3, (byte)name.Length, .. name, 0, 80], s_greeting);

        bool open = await Socks5Client.TryConnectAsync(proxy.Transport, "zmq.example", 5555, "user"u8.ToArray(), "pw"u8.ToArray())
            .AsTask().WaitAsync(s_timeout);

        Assert.True(open);
        byte[] expected = [5, 1, 2, 1, 4, .. "user"u8, 2, .. "pw"u8, 5, 1, 0, 3, (byte)name.Length, .. name, 0x15, 0xB3];
        Assert.Equal(expected, await proxy.SentAsync());
        Assert.Equal(s_greeting, await proxy.ReceiveRestAsync(s_greeting.Length));
    }

    [Fact]
    public async Task TryConnectAsync_Ipv6Reply_TunnelOpenAndGreetingLeftUnread()
    {
        byte[] reply = [5, 0, 0, 4, .. new byte[16], 0x1F, 0x90];
        var proxy = new ScriptedProxy([5, 0], reply, s_greeting);

        bool open = await Socks5Client.TryConnectAsync(proxy.Transport, "::1", 5555, [], [])
            .AsTask().WaitAsync(s_timeout);

        Assert.True(open);
        Assert.Equal(s_greeting, await proxy.ReceiveRestAsync(s_greeting.Length));
    }

    [Theory]
    [InlineData(new byte[] { 5, 0xFF })]
    [InlineData(new byte[] { 4, 0 })]
    public async Task TryConnectAsync_MethodRefused_False(byte[] methodReply)
    {
        var proxy = new ScriptedProxy(methodReply);

        Assert.False(await Socks5Client.TryConnectAsync(proxy.Transport, "192.0.2.7", 5555, [], [])
            .AsTask().WaitAsync(s_timeout));
    }

    [Fact]
    public async Task TryConnectAsync_WrongCredentials_False()
    {
        var proxy = new ScriptedProxy([5, 2], [1, 1]);

        Assert.False(await Socks5Client.TryConnectAsync(proxy.Transport, "192.0.2.7", 5555, "user"u8.ToArray(), "bad"u8.ToArray())
            .AsTask().WaitAsync(s_timeout));
    }

    [Theory]
    [InlineData(new byte[] { 5, 5, 0, 1, 0, 0, 0, 0, 0, 0 })]
    [InlineData(new byte[] { 5, 0, 0, 9, 0, 0, 0, 0, 0, 0 })]
    public async Task TryConnectAsync_ConnectRefusedOrUnknownAddressType_False(byte[] connectReply)
    {
        var proxy = new ScriptedProxy([5, 0], connectReply);

        Assert.False(await Socks5Client.TryConnectAsync(proxy.Transport, "192.0.2.7", 5555, [], [])
            .AsTask().WaitAsync(s_timeout));
    }

    [Fact]
    public async Task TryConnectAsync_ProxyClosesMidReply_False()
    {
        var proxy = new ScriptedProxy([5, 0], [5, 0, 0]);
        proxy.CloseAfterScript();

        Assert.False(await Socks5Client.TryConnectAsync(proxy.Transport, "192.0.2.7", 5555, [], [])
            .AsTask().WaitAsync(s_timeout));
    }

    [Fact]
    public async Task TryConnectAsync_HostNameLongerThan255_FalseAndNothingSent()
    {
        var proxy = new ScriptedProxy();

        Assert.False(await Socks5Client.TryConnectAsync(proxy.Transport, new string('a', 256), 5555, [], [])
            .AsTask().WaitAsync(s_timeout));
        Assert.Empty(await proxy.SentAsync());
    }

    /// <summary>A proxy whose replies are all written before the client starts, so an over-read would take the greeting.</summary>
    private sealed class ScriptedProxy
    {
        private readonly System.IO.Pipelines.Pipe _toClient = new();
        private readonly System.IO.Pipelines.Pipe _fromClient = new();

        public ScriptedProxy(params byte[][] script)
        {
            foreach (byte[] chunk in script)
            {
                _toClient.Writer.Write(chunk);
            }

            _toClient.Writer.FlushAsync().AsTask().Wait(s_timeout);
            Transport = new InMemoryByteTransport(_toClient.Reader, _fromClient.Writer);
        }

        public InMemoryByteTransport Transport { get; }

        public void CloseAfterScript() => _toClient.Writer.Complete();

        /// <summary>Everything the client sent so far.</summary>
        public async Task<byte[]> SentAsync()
        {
            await _fromClient.Writer.FlushAsync().AsTask().WaitAsync(s_timeout);
            if (!_fromClient.Reader.TryRead(out var result))
            {
                return [];
            }

            byte[] sent = result.Buffer.ToArray();
            _fromClient.Reader.AdvanceTo(result.Buffer.End);
            return sent;
        }

        /// <summary>What the client left unread, as the ZMTP handshake would receive it next.</summary>
        public async Task<byte[]> ReceiveRestAsync(int length)
        {
            var rest = new byte[length];
            int received = await Transport.ReceiveAsync(rest).AsTask().WaitAsync(s_timeout);
            return rest[..received];
        }
    }
}
