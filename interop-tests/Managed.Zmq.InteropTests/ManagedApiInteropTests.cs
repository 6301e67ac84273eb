using System.Text;
using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests;

/// <summary>
/// The Net.Zmq-shaped API of our socket (strings, Message, MultipartMessage, buffer receives)
/// against a libzmq peer, beyond the byte-array path the pattern scenarios use.
/// </summary>
public sealed class ManagedApiInteropTests
{
    /// <summary>A managed PAIR and a libzmq PAIR; we bind.</summary>
    private sealed class Pair : IDisposable
    {
        private readonly Context _context = new();
        private readonly NativeContext _native = new();

        public Pair()
        {
            Ours = new Socket(_context, SocketType.Pair);
            Ours.SetOption(SocketOption.Linger, 0);
            Ours.SetOption(SocketOption.Rcvtimeo, (int)Timeouts.Io.TotalMilliseconds);
            Ours.SetOption(SocketOption.Sndtimeo, (int)Timeouts.Io.TotalMilliseconds);
            Theirs = _native.Socket(SocketType.Pair);
            Ours.Bind("tcp://127.0.0.1:*");
            Theirs.Connect(Ours.GetOptionString(SocketOption.Last_Endpoint));
        }

        public Socket Ours { get; }

        public NativeSocket Theirs { get; }

        public void Dispose()
        {
            Ours.Dispose();
            Theirs.Dispose();
            _context.Dispose();
            _native.Dispose();
        }
    }

    [Fact]
    public Task ManagedApi_SendAndRecvString_Utf8OnTheWire() => Deadline.Run(() =>
    {
        using var pair = new Pair();
        const string text = "héllo, 世界 🚀";

        Assert.True(pair.Ours.Send(text));
        Bytes.Equal([Encoding.UTF8.GetBytes(text)], pair.Theirs.RecvMessage(), "string from Managed.Zmq");

        pair.Theirs.SendMessage(Encoding.UTF8.GetBytes(text));
        Assert.Equal(text, pair.Ours.RecvString());

        Assert.True(pair.Ours.Send(""));
        Bytes.Equal([[]], pair.Theirs.RecvMessage(), "empty string");
    });

    [Fact]
    public Task ManagedApi_RecvIntoMessage_CarriesSizeAndMoreFlags() => Deadline.Run(() =>
    {
        using var pair = new Pair();
        var big = Bytes.Pattern(Transfer.MiB);
        pair.Theirs.SendMessage(big, [], Bytes.Pattern(256));

        using var message = new Message();
        Assert.Equal(Transfer.MiB, pair.Ours.Recv(message));
        Assert.True(message.More);
        Assert.True(pair.Ours.HasMore);
        Assert.True(message.Data.SequenceEqual(big));
        Assert.Equal(0, pair.Ours.Recv(message));
        Assert.True(message.More);
        Assert.Equal(256, pair.Ours.Recv(message));
        Assert.False(message.More);
        Assert.False(pair.Ours.HasMore);
        Assert.Equal(Bytes.Pattern(256), message.ToArray());
    });

    [Fact]
    public Task ManagedApi_RecvIntoSmallBuffer_TruncatesAndReturnsFullSize() => Deadline.Run(() =>
    {
        using var pair = new Pair();
        var frame = Bytes.Pattern(300);
        pair.Theirs.SendMessage(frame);
        pair.Theirs.SendMessage(Bytes.Of("next"));

        var buffer = new byte[100];
        Assert.Equal(300, pair.Ours.Recv(buffer));
        Assert.Equal(frame[..100], buffer);
        Assert.Equal("next", pair.Ours.RecvString()); // the truncated frame was consumed whole
    });

    [Fact]
    public Task ManagedApi_SendMessageAndMultipartMessage_ArriveAsFramesAtLibzmq() => Deadline.Run(() =>
    {
        using var pair = new Pair();
        using (var single = new Message(Bytes.Pattern(255)))
        {
            Assert.Equal(255, pair.Ours.Send(single));
        }

        Bytes.Equal([Bytes.Pattern(255)], pair.Theirs.RecvMessage(), "Send(Message)");

        using var multipart = new MultipartMessage();
        multipart.Add("header");
        multipart.AddEmptyFrame();
        multipart.Add(Bytes.Pattern(Transfer.MiB));
        pair.Ours.SendMultipart(multipart);
        Bytes.Equal([Bytes.Of("header"), [], Bytes.Pattern(Transfer.MiB)], pair.Theirs.RecvMessage(), "SendMultipart(MultipartMessage)");

        pair.Theirs.SendMessage(Bytes.Of("a"), [], Bytes.Of("c"));
        using var received = pair.Ours.RecvMultipart();
        Assert.Equal(3, received.Count);
        Assert.Equal("a", received.PeekFirstString());
        Assert.Equal(0, received[1].Size);
        Assert.Equal("c", received.PeekLastString());
    });

    [Fact]
    public Task ManagedApi_TryRecvOnQuietConnection_ReturnsFalseThenTrue() => Deadline.Run(() =>
    {
        using var pair = new Pair();
        Assert.False(pair.Ours.TryRecvString(out _));
        Assert.False(pair.Ours.TryRecvMultipart(out var none));
        Assert.Null(none);

        pair.Theirs.SendMessage(Bytes.Of("x"), Bytes.Of("y"));
        Deadline.RetryUntil(() =>
        {
            if (!pair.Ours.TryRecvMultipart(out var message))
            {
                Thread.Yield();
                return false;
            }

            using (message)
                Assert.Equal(["x", "y"], message!.Select(frame => frame.ToString()));
            return true;
        }, "the message from libzmq");
    });

    [Fact]
    public Task ManagedApi_RecvTimeout_ThrowsEagainWhileLibzmqPeerIsIdle() => Deadline.Run(() =>
    {
        using var pair = new Pair();
        pair.Ours.SetOption(SocketOption.Rcvtimeo, 50);
        var error = Assert.Throws<ZmqException>(() => pair.Ours.RecvBytes());
        Assert.Equal(ZmqConstants.EAGAIN, error.ErrorNumber);
        Assert.Equal(ErrorCode.EAGAIN, error.ErrorCode);
    });
}
