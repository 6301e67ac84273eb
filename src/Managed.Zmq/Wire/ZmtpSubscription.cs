using System.Diagnostics;

namespace Managed.Zmq.Wire;

/// <summary>Both wire forms of a subscription change (RFC 23 and RFC 37 §The Publish-Subscribe Pattern).</summary>
/// <remarks>
/// The sender picks the form from the peer's minor version (commands for 3.1 and later, messages
/// for 3.0); a receiver accepts both on any connection, as libzmq does (docs/libzmq-behaviour.md L12).
/// </remarks>
internal static class ZmtpSubscription
{
    private const byte SubscribePrefix = 0x01;
    private const byte CancelPrefix = 0x00;

    /// <summary>The whole SUBSCRIBE or CANCEL command frame length.</summary>
    public static int GetCommandFrameLength(bool subscribe, int topicLength) =>
        ZmtpCommandCodec.GetFrameLength(GetCommandName(subscribe).Length, topicLength);

    /// <summary>Writes a SUBSCRIBE or CANCEL command frame (ZMTP 3.1) and returns its length.</summary>
    public static int WriteCommandFrame(Span<byte> destination, bool subscribe, ReadOnlySpan<byte> topic) =>
        ZmtpCommandCodec.WriteFrame(destination, GetCommandName(subscribe), topic);

    /// <summary>The whole frame length of a 0x01/0x00 subscription message.</summary>
    public static int GetMessageFrameLength(int topicLength)
    {
        int bodyLength = 1 + topicLength;
        return ZmtpFrame.GetHeaderLength(bodyLength) + bodyLength;
    }

    /// <summary>Writes a one-frame subscription message (ZMTP 3.0): 0x01 or 0x00, then the topic.</summary>
    /// <remarks>
    /// LONG is set from the body length, topic octet included. (Some libzmq versions get this wrong
    /// around 255 octets (docs/libzmq-behaviour.md L10); we do not copy that.)
    /// </remarks>
    public static int WriteMessageFrame(Span<byte> destination, bool subscribe, ReadOnlySpan<byte> topic)
    {
        Debug.Assert(topic.Length < int.MaxValue, "The topic must leave room for its prefix octet.");
        int written = ZmtpFrame.WriteHeader(destination, 1 + topic.Length, ZmtpFrameFlags.None);
        destination[written++] = subscribe ? SubscribePrefix : CancelPrefix;
        topic.CopyTo(destination.Slice(written));
        return written + topic.Length;
    }

    /// <summary>Recognises a SUBSCRIBE or CANCEL command; its whole data is the topic.</summary>
    /// <returns>False for any other command.</returns>
    public static bool TryParseCommand(in ZmtpCommand command, out bool subscribe, out ReadOnlySpan<byte> topic)
    {
        if (command.Is(ZmtpCommandNames.Subscribe))
        {
            subscribe = true;
            topic = command.Data;
            return true;
        }

        if (command.Is(ZmtpCommandNames.Cancel))
        {
            subscribe = false;
            topic = command.Data;
            return true;
        }

        subscribe = false;
        topic = default;
        return false;
    }

    /// <summary>Recognises a subscription message body: 0x01 (subscribe) or 0x00 (cancel), then the topic.</summary>
    /// <returns>False when the body is empty or starts with any other octet.</returns>
    public static bool TryParseMessage(ReadOnlySpan<byte> body, out bool subscribe, out ReadOnlySpan<byte> topic)
    {
        if (body.IsEmpty || body[0] > SubscribePrefix)
        {
            subscribe = false;
            topic = default;
            return false;
        }

        subscribe = body[0] == SubscribePrefix;
        topic = body.Slice(1);
        return true;
    }

    private static ReadOnlySpan<byte> GetCommandName(bool subscribe) =>
        subscribe ? ZmtpCommandNames.Subscribe : ZmtpCommandNames.Cancel;
}
