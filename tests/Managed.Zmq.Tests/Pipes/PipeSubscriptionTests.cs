using System.Text;
using Managed.Zmq.Inproc;
using Managed.Zmq.Pipes;
using Managed.Zmq.Tests.Support;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Pipes;

/// <summary>
/// A subscription change written by one pipe reaches the other end as a command its pipe decodes, on both
/// carriers (RFC 37 §Publish-Subscribe for tcp and ipc, our own form over inproc); the 0x01/0x00 message
/// form is recognised on both (RFC 29). No socket: the test is the engine or the inproc link.
/// </summary>
public sealed class PipeSubscriptionTests
{
    private readonly FakePipeOwner _owner = new();

    public static TheoryData<bool> Carriers => new() { false, true };

    [Theory]
    [MemberData(nameof(Carriers))]
    public void WriteSubscription_Subscribe_PeerReadsKindAndTopic(bool inproc)
    {
        var (writer, reader) = inproc ? InprocPair() : StreamPair();

        writer.WriteSubscription(subscribe: true, "topic"u8);
        Carry(writer, reader);

        Assert.True(reader.TryPeekFrame(out var frame));
        Assert.True(frame.IsCommand);
        Assert.True(reader.TryReadSubscription(frame, out bool subscribe, out var topic));
        Assert.True(subscribe);
        Assert.Equal("topic", Encoding.ASCII.GetString(topic));
    }

    [Theory]
    [MemberData(nameof(Carriers))]
    public void WriteSubscription_CancelWithEmptyTopic_PeerReadsCancel(bool inproc)
    {
        var (writer, reader) = inproc ? InprocPair() : StreamPair();

        writer.WriteSubscription(subscribe: false, default);
        Carry(writer, reader);

        Assert.True(reader.TryPeekFrame(out var frame));
        Assert.True(reader.TryReadSubscription(frame, out bool subscribe, out var topic));
        Assert.False(subscribe);
        Assert.True(topic.IsEmpty);
    }

    [Theory]
    [MemberData(nameof(Carriers))]
    public void WriteSubscription_LongTopic_PeerReadsItWhole(bool inproc)
    {
        var (writer, reader) = inproc ? InprocPair() : StreamPair();
        var longTopic = Enumerable.Range(0, 1000).Select(i => (byte)i).ToArray();

        writer.WriteSubscription(subscribe: true, longTopic);
        Carry(writer, reader);

        Assert.True(reader.TryPeekFrame(out var frame));
        Assert.True(reader.TryReadSubscription(frame, out _, out var topic));
        Assert.Equal(longTopic, topic.ToArray());
    }

    [Theory]
    [MemberData(nameof(Carriers))]
    public void TryReadSubscription_MessageForm_IsRecognised(bool inproc)
    {
        var (writer, reader) = inproc ? InprocPair() : StreamPair();

        writer.WriteFrame(new OutboundFrame([1, (byte)'a'], more: false));
        Carry(writer, reader);

        Assert.True(reader.TryPeekFrame(out var frame));
        Assert.False(frame.IsCommand);
        Assert.True(reader.TryReadSubscription(frame, out bool subscribe, out var topic));
        Assert.True(subscribe);
        Assert.Equal("a", Encoding.ASCII.GetString(topic));
    }

    [Theory]
    [InlineData(new byte[] { 2, 1 }, false)]
    [InlineData(new byte[0], false)]
    [InlineData(new byte[] { 1 }, true)]
    public void TryReadSubscription_OtherMessages_AreNotSubscriptions(byte[] body, bool more)
    {
        var (writer, reader) = InprocPair();

        writer.WriteFrame(new OutboundFrame(body, more));
        if (more)
        {
            writer.WriteFrame(new OutboundFrame([], more: false));
        }

        Assert.True(reader.TryPeekFrame(out var frame));
        Assert.False(reader.TryReadSubscription(frame, out _, out _));
    }

    [Fact]
    public void WriteSubscription_StreamPipe_QueuesTheZmtp31Command()
    {
        var (writer, _) = StreamPair();

        writer.WriteSubscription(subscribe: true, "t"u8);

        // RFC 37: a command frame whose body is the name SUBSCRIBE (length-prefixed), then the topic.
        var queued = ((StreamPipe)writer).Outbound.Peek();
        Assert.Equal(ZmtpFrameFlags.Command, (ZmtpFrameFlags)queued[0]);
        Assert.Equal("\u0009SUBSCRIBEt", Encoding.ASCII.GetString(queued[2..]));
    }

    private (Pipe Writer, Pipe Reader) StreamPair()
        => (new StreamPipe(_owner, 0, 0, fromConnect: true), new StreamPipe(_owner, 0, 0, fromConnect: false));

    private (Pipe Writer, Pipe Reader) InprocPair()
    {
        var there = new InprocChannel();
        var back = new InprocChannel();
        return (new InprocPipe(_owner, 0, 0, fromConnect: true, there, back), new InprocPipe(_owner, 0, 0, fromConnect: false, back, there));
    }

    /// <summary>For stream pipes, what two engines and the wire do: the writer's queued bytes land in the reader's inbound queue.</summary>
    private static void Carry(Pipe writer, Pipe reader)
    {
        if (writer is not StreamPipe stream)
        {
            return;
        }

        var bytes = stream.Outbound.Peek().ToArray();
        stream.Outbound.Consume(bytes.Length);
        var inbound = ((StreamPipe)reader).Inbound;
        bytes.CopyTo(inbound.GetSpan(bytes.Length));
        inbound.Advance(bytes.Length);
        inbound.Commit(1);
    }
}
