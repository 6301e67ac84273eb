using System.Text;
using Managed.Zmq.Engine;
using Managed.Zmq.Tests.Wire.Support;
using Managed.Zmq.Wire;
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// The receive side of a ZMTP 1.0 connection without sockets: RFC 13 frames in, however split, and the inbound
/// queue's ZMTP 3.x frames out, published by whole messages only (RFC 13 §The Framing Layer; libzmq notes docs/libzmq-behaviour.md L2, docs/libzmq-behaviour.md L25).
/// </summary>
public sealed class Zmtp10DecoderTests
{
    private static readonly byte[] LongBody = Enumerable.Range(0, 300).Select(i => (byte)i).ToArray();

    /// <summary>An empty MORE frame, "hello", then a 300-octet frame in RFC 13's long form, then "x": two messages.</summary>
    private static byte[] TwoMessages() => [.. WireBytes.Parse("01 01 06 00 'hello' FF 00 00 00 00 00 00 01 2D 01"), .. LongBody, .. WireBytes.Parse("02 00 'x'")];

    private static Zmtp10Decoder Decoder(FrameQueue queue, long maxMessageSize = -1) => new(queue, maxMessageSize, ZmtpConnection.RentFrameBuffer);

    /// <summary>Every committed frame as (more, body), read as the socket reads the queue; payloads are released.</summary>
    private static List<(bool More, byte[] Body)> ReadAll(FrameQueue queue, out int messages)
    {
        var frames = new List<(bool, byte[])>();
        messages = 0;
        while (queue.Peek() is { IsEmpty: false } span)
        {
            int length = QueuedFrame.Read(span, out var header, out bool external);
            Assert.False(header.IsCommand, "RFC 13 has no commands");
            if (external)
            {
                var payload = queue.TakePayload();
                frames.Add((header.More, payload.Span.ToArray()));
                payload.Release();
            }
            else
            {
                frames.Add((header.More, span.Slice(header.HeaderLength, (int)header.BodyLength).ToArray()));
            }

            queue.Consume(length);
            messages += header.More ? 0 : 1;
        }

        return frames;
    }

    private static string Show(List<(bool More, byte[] Body)> frames) =>
        string.Join(" | ", frames.Select(f => (f.More ? "+" : ".") + Convert.ToHexString(f.Body)));

    [Fact]
    public void Decode_SplitAtEveryOffset_SameFramesAndMessages()
    {
        byte[] wire = TwoMessages();
        string expected = Show([(true, []), (false, "hello"u8.ToArray()), (true, LongBody), (false, "x"u8.ToArray())]);

        for (int cut = 0; cut <= wire.Length; cut++)
        {
            var queue = new FrameQueue();
            var decoder = Decoder(queue);

            Assert.True(decoder.Decode(wire.AsSpan(0, cut)));
            Assert.True(decoder.Decode(wire.AsSpan(cut)));

            Assert.Equal(expected, Show(ReadAll(queue, out int messages)));
            Assert.Equal(2, messages);
        }
    }

    [Fact]
    public void Decode_OneOctetAtATime_SameFrames()
    {
        byte[] wire = TwoMessages();
        var queue = new FrameQueue();
        var decoder = Decoder(queue);

        foreach (byte octet in wire)
        {
            Assert.True(decoder.Decode([octet]));
        }

        Assert.Equal(4, ReadAll(queue, out int messages).Count);
        Assert.Equal(2, messages);
    }

    [Fact]
    public void Decode_MessageNotYetWhole_NothingPublished()
    {
        var queue = new FrameQueue();
        var decoder = Decoder(queue);

        Assert.True(decoder.Decode(WireBytes.Parse("02 01 'a' 03 00 'b'")));

        Assert.False(decoder.TakePublished());
        Assert.True(queue.Peek().IsEmpty);
        Assert.True(decoder.Decode(WireBytes.Parse("'c'")));
        Assert.True(decoder.TakePublished());
        Assert.Equal("+61 | .6263", Show(ReadAll(queue, out _)));
    }

    [Theory]
    // RFC 13: a length of 0 leaves no room for the flags octet; libzmq closes on it (EPROTO).
    [InlineData("00")]
    [InlineData("02 00 'a' 00")]
    [InlineData("FF 00 00 00 00 00 00 00 00 00")]
    public void Decode_ZeroLength_Refused(string wire)
    {
        Assert.False(Decoder(new FrameQueue()).Decode(WireBytes.Parse(wire)));
    }

    [Fact]
    public void Decode_FrameAboveMaxMessageSize_RefusedAfterDeliveringEarlierMessages()
    {
        // libzmq's 1.0 decoder applies MAXMSGSIZE to each frame's body, and what it decoded before stays delivered.
        var queue = new FrameQueue();

        bool accepted = Decoder(queue, maxMessageSize: 4).Decode(WireBytes.Parse("05 00 'abcd' 07 00"));

        Assert.False(accepted);
        Assert.Equal(".61626364", Show(ReadAll(queue, out _)));
    }

    [Fact]
    public void Decode_LargeFrame_QueuedByReferenceAndReceivableInPlace()
    {
        // A large body goes to a pooled buffer of its own, as a 3.x connection's does; the read loop may receive into it.
        int size = ZmtpConnection.DirectFrameThreshold + 5;
        byte[] body = Enumerable.Range(0, size).Select(i => (byte)(i * 7)).ToArray();
        var header = new byte[Zmtp10Frame.LongHeaderLength];
        Zmtp10Frame.WriteHeader(header, size, more: false);
        var queue = new FrameQueue();
        var decoder = Decoder(queue);

        Assert.True(decoder.Decode([.. header, .. body.AsSpan(0, 100)]));
        Assert.Equal(size - 100, decoder.BodyRemaining);
        body.AsSpan(100).CopyTo(decoder.BodySpace.Span);
        decoder.BodyReceived(size - 100);

        Assert.True(decoder.TakePublished());
        var span = queue.Peek();
        QueuedFrame.Read(span, out _, out bool external);
        Assert.True(external, "a large body travels by reference");
        var frames = ReadAll(queue, out int messages);
        Assert.Equal(1, messages);
        Assert.Equal(body, frames.Single().Body);
    }

    [Fact]
    public void Decode_LargeFrameInsideMultipart_FramesStayInOrderAndPublishedWhole()
    {
        // The large frame's payload waits with the message until its last frame is in, as a 3.x connection's does.
        int size = ZmtpConnection.DirectFrameThreshold;
        byte[] body = Enumerable.Range(0, size).Select(i => (byte)(i * 3)).ToArray();
        var header = new byte[Zmtp10Frame.LongHeaderLength];
        int headerLength = Zmtp10Frame.WriteHeader(header, size, more: true);
        var queue = new FrameQueue();
        var decoder = Decoder(queue);

        Assert.True(decoder.Decode([.. WireBytes.Parse("02 01 'a'"), .. header.AsSpan(0, headerLength), .. body]));
        Assert.True(queue.Peek().IsEmpty);
        Assert.True(decoder.Decode(WireBytes.Parse("02 00 'z'")));

        Assert.Equal(Show([(true, "a"u8.ToArray()), (true, body), (false, "z"u8.ToArray())]), Show(ReadAll(queue, out int messages)));
        Assert.Equal(1, messages);
    }

    [Fact]
    public void InjectSubscribeAll_QueuesOneSubscribeToEverythingMessage()
    {
        var queue = new FrameQueue();
        var decoder = Decoder(queue);

        decoder.InjectSubscribeAll();

        Assert.True(decoder.TakePublished());
        Assert.Equal(WireBytes.ToHex(WireBytes.Parse("00 01 01")), WireBytes.ToHex(queue.Peek()));
    }

    [Fact]
    public void Decode_ManyMessagesPastASegment_AllPublishedInOrder()
    {
        // Commits name positions in the segment being written: a batch is published before the queue moves on.
        var wire = new List<byte>();
        for (int i = 0; i < 5000; i++)
        {
            byte[] text = Encoding.ASCII.GetBytes($"m{i}");
            wire.Add((byte)(text.Length + 1));
            wire.Add(0);
            wire.AddRange(text);
        }

        var queue = new FrameQueue();

        Assert.True(Decoder(queue).Decode(wire.ToArray()));

        var frames = ReadAll(queue, out int messages);
        Assert.Equal(5000, messages);
        Assert.Equal(Enumerable.Range(0, 5000).Select(i => $"m{i}"), frames.Select(f => Encoding.ASCII.GetString(f.Body)));
    }
}
