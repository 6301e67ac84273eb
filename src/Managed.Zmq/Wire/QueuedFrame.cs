using System.Runtime.CompilerServices;

namespace Managed.Zmq.Wire;

/// <summary>
/// How frames lie in a stream pipe's frame queue: ZMTP frames, except that a large payload sent
/// without a copy is left out, its header marked with <see cref="ExternalMarker"/> (a flag bit ZMTP
/// reserves, RFC 23 §Framing, so never seen on the wire: the write loop clears it) and its bytes
/// waiting in the queue's payload queue. The stream pipe and the engine both read and write the
/// queue through this codec, so nothing above the engine knows the header layout.
/// </summary>
internal static class QueuedFrame
{
    public const byte ExternalMarker = 0x80;

    /// <summary>The longest header a queued frame has.</summary>
    public const int MaxHeaderLength = ZmtpFrame.MaxHeaderLength;

    /// <summary>Reads the frame at the start of <paramref name="frames"/>; returns how many queue bytes it takes.</summary>
    public static int Read(ReadOnlySpan<byte> frames, out ZmtpFrameHeader header, out bool external)
    {
        ZmtpFrame.TryReadHeader(frames, out header);
        external = (frames[0] & ExternalMarker) != 0;
        return external ? header.HeaderLength : header.HeaderLength + (int)header.BodyLength;
    }

    /// <summary>
    /// Copies the header of the frame held by reference at the start of <paramref name="frames"/> into
    /// <paramref name="destination"/> as it goes on the wire (marker cleared, the queue left intact); returns its length.
    /// </summary>
    public static int CopyWireHeader(ReadOnlySpan<byte> frames, Span<byte> destination, out ZmtpFrameHeader header)
    {
        int length = Read(frames, out header, out _);
        frames[..length].CopyTo(destination);
        destination[0] &= unchecked((byte)~ExternalMarker);
        return length;
    }

    /// <summary>Decodes the frame at the start of <paramref name="frames"/> (a whole frame the producer committed).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static QueuedFrameInfo Decode(ReadOnlySpan<byte> frames)
    {
        byte flags = frames[0];
        if ((flags & (byte)ZmtpFrameFlags.Long) == 0)
        {
            return new QueuedFrameInfo(flags, ZmtpFrame.ShortHeaderLength, frames[1]);
        }

        ZmtpFrame.TryReadHeader(frames, out var header);
        return new QueuedFrameInfo(flags, header.HeaderLength, (int)header.BodyLength);
    }

    /// <summary>Queue bytes a frame of <paramref name="bodyLength"/> octets takes when its body is copied in.</summary>
    public static int GetLength(int bodyLength) => ZmtpFrame.GetHeaderLength(bodyLength) + bodyLength;

    /// <summary>Queue bytes the header of an external frame of <paramref name="bodyLength"/> octets takes.</summary>
    public static int GetExternalLength(int bodyLength) => ZmtpFrame.GetHeaderLength(bodyLength);

    /// <summary>Writes a message frame, header and body; returns the bytes written.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int Write(Span<byte> destination, ReadOnlySpan<byte> body, bool more)
    {
        int headerLength = ZmtpFrame.WriteHeader(destination, body.Length, more ? ZmtpFrameFlags.More : ZmtpFrameFlags.None);
        body.CopyTo(destination.Slice(headerLength));
        return headerLength + body.Length;
    }

    /// <summary>Writes the header of a frame whose bytes travel by reference; returns the bytes written.</summary>
    public static int WriteExternal(Span<byte> destination, int bodyLength, bool more)
    {
        int headerLength = ZmtpFrame.WriteHeader(destination, bodyLength, more ? ZmtpFrameFlags.More : ZmtpFrameFlags.None);
        destination[0] |= ExternalMarker;
        return headerLength;
    }

    /// <summary>
    /// Queue bytes of a subscription change: the SUBSCRIBE or CANCEL command of ZMTP 3.1
    /// (RFC 37 §The Publish-Subscribe Pattern); the engine rewrites it as a 0x01/0x00 message for a 3.0 peer
    /// (docs/libzmq-behaviour.md L12), whose version is unknown until the handshake.
    /// </summary>
    public static int GetSubscriptionLength(bool subscribe, int topicLength) =>
        ZmtpSubscription.GetCommandFrameLength(subscribe, topicLength);

    /// <summary>Writes a subscription change (see <see cref="GetSubscriptionLength"/>); returns the bytes written.</summary>
    public static int WriteSubscription(Span<byte> destination, bool subscribe, ReadOnlySpan<byte> topic) =>
        ZmtpSubscription.WriteCommandFrame(destination, subscribe, topic);

    /// <summary>Queue bytes of a DISH's JOIN or LEAVE command (RFC 37 §The Radio-Dish Pattern).</summary>
    public static int GetGroupCommandLength(bool join, int groupLength) => ZmtpGroupCommand.GetFrameLength(join, groupLength);

    /// <summary>Writes a JOIN or LEAVE command (see <see cref="GetGroupCommandLength"/>); returns the bytes written.</summary>
    public static int WriteGroupCommand(Span<byte> destination, bool join, ReadOnlySpan<byte> group) =>
        ZmtpGroupCommand.WriteFrame(destination, join, group);

    /// <summary>Recognises the body of a JOIN or LEAVE command frame.</summary>
    public static bool TryReadGroupCommand(ReadOnlySpan<byte> body, out bool join, out ReadOnlySpan<byte> group) =>
        ZmtpGroupCommand.TryParseBody(body, out join, out group);

    /// <summary>Recognises the body of a SUBSCRIBE or CANCEL command frame.</summary>
    public static bool TryReadSubscriptionCommand(ReadOnlySpan<byte> body, out bool subscribe, out ReadOnlySpan<byte> topic)
    {
        if (ZmtpCommandCodec.TryParse(body, out var command))
        {
            subscribe = command.Is(ZmtpCommandNames.Subscribe);
            if (subscribe || command.Is(ZmtpCommandNames.Cancel))
            {
                topic = command.Data;
                return true;
            }
        }

        subscribe = false;
        topic = default;
        return false;
    }
}

/// <summary>
/// The frames of a span of queued frames (whole frames, as committed), in order: the one loop over queued
/// frames, for <c>foreach</c>. Each frame comes with its offset in the span.
/// </summary>
internal readonly ref struct QueuedFrames
{
    private readonly ReadOnlySpan<byte> _frames;

    public QueuedFrames(ReadOnlySpan<byte> frames)
    {
        _frames = frames;
    }

    public Enumerator GetEnumerator() => new(_frames);

    public ref struct Enumerator
    {
        private readonly ReadOnlySpan<byte> _frames;
        private int _next;

        internal Enumerator(ReadOnlySpan<byte> frames)
        {
            _frames = frames;
        }

        public QueuedFrameInfo Current { get; private set; }

        /// <summary>Inlined: the write loops walk every frame of a batch with it, so a call per frame would cost on every write.</summary>
        [MethodImpl(MethodImplOptions.AggressiveInlining)]
        public bool MoveNext()
        {
            if (_next >= _frames.Length)
            {
                return false;
            }

            var frame = QueuedFrame.Decode(_frames[_next..]).At(_next);
            _next += frame.QueuedLength;
            Current = frame;
            return true;
        }
    }
}

/// <summary>One decoded queued frame: its flags, header and body lengths, and whether its body travels by reference.</summary>
internal readonly struct QueuedFrameInfo
{
    private readonly byte _flags;

    public QueuedFrameInfo(byte flags, int headerLength, int bodyLength, int offset = 0)
    {
        _flags = flags;
        HeaderLength = headerLength;
        BodyLength = bodyLength;
        Offset = offset;
    }

    /// <summary>Where the frame starts in the span it was read from (<see cref="QueuedFrames"/>).</summary>
    public int Offset { get; }

    /// <summary>The same frame, found at <paramref name="offset"/>.</summary>
    public QueuedFrameInfo At(int offset) => new(_flags, HeaderLength, BodyLength, offset);

    public int HeaderLength { get; }

    public int BodyLength { get; }

    public bool More => (_flags & (byte)ZmtpFrameFlags.More) != 0;

    public bool IsCommand => (_flags & (byte)ZmtpFrameFlags.Command) != 0;

    /// <summary>The body is in the queue's payload queue, not after the header.</summary>
    public bool IsExternal => (_flags & ExternalMarkerBit) != 0;

    /// <summary>Bytes the frame takes in the queue.</summary>
    public int QueuedLength => IsExternal ? HeaderLength : HeaderLength + BodyLength;

    private const byte ExternalMarkerBit = QueuedFrame.ExternalMarker;
}
