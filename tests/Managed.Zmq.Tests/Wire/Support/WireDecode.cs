using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Wire.Support;

/// <summary>
/// Decoders that turn received octets into result strings for <see cref="SplitFeed"/>: a frame is
/// read with <see cref="ZmtpFrame.TryReadFrame"/> first, so a command vector is checked from its
/// very first octet, not from an already isolated body.
/// </summary>
internal static class WireDecode
{
    public const string Pending = nameof(ZmtpStatus.NeedMoreData);

    public delegate string BodyInterpreter(ZmtpFrameHeader header, ReadOnlySpan<byte> body);

    public delegate string CommandInterpreter(ZmtpCommand command);

    public static string Header(ReadOnlySpan<byte> received)
    {
        ZmtpStatus status = ZmtpFrame.TryReadHeader(received, out ZmtpFrameHeader header);
        return status == ZmtpStatus.Done ? Describe(header) : status.ToString();
    }

    public static string Frame(ReadOnlySpan<byte> received, BodyInterpreter interpret)
    {
        ZmtpStatus status = ZmtpFrame.TryReadFrame(received, out ZmtpFrameHeader header, out ReadOnlySpan<byte> body);
        return status == ZmtpStatus.Done ? interpret(header, body) : status.ToString();
    }

    public static string Command(ReadOnlySpan<byte> received, CommandInterpreter interpret) =>
        Frame(received, (header, body) =>
        {
            if (!header.IsCommand)
            {
                return "not a command";
            }

            return ZmtpCommandCodec.TryParse(body, out ZmtpCommand command)
                ? $"{WireBytes.Show(command.Name)} {interpret(command)}"
                : "bad command";
        });

    public static string Describe(ZmtpFrameHeader header) =>
        $"flags={header.Flags} body={header.BodyLength} header={header.HeaderLength}";
}
