namespace Managed.Zmq.Wire;

/// <summary>
/// The JOIN and LEAVE commands a DISH sends its RADIO peers (RFC 37 §The Radio-Dish Pattern): the command name,
/// then the group as the rest of the body. libzmq 4.3 sends them as command frames whatever the peer's minor
/// version (its ZMTP 3.0 encoder sets the command flag too), so unlike SUBSCRIBE there is no 3.0 message form.
/// </summary>
internal static class ZmtpGroupCommand
{
    /// <summary>The whole JOIN or LEAVE command frame length.</summary>
    public static int GetFrameLength(bool join, int groupLength) =>
        ZmtpCommandCodec.GetFrameLength(GetName(join).Length, groupLength);

    /// <summary>Writes a JOIN or LEAVE command frame and returns its length.</summary>
    public static int WriteFrame(Span<byte> destination, bool join, ReadOnlySpan<byte> group) =>
        ZmtpCommandCodec.WriteFrame(destination, GetName(join), group);

    /// <summary>Recognises a JOIN or LEAVE command; its whole data is the group.</summary>
    /// <returns>False for any other command.</returns>
    public static bool TryParse(in ZmtpCommand command, out bool join, out ReadOnlySpan<byte> group)
    {
        join = command.Is(ZmtpCommandNames.Join);
        if (join || command.Is(ZmtpCommandNames.Leave))
        {
            group = command.Data;
            return true;
        }

        group = default;
        return false;
    }

    /// <summary>Recognises the body of a JOIN or LEAVE command frame.</summary>
    public static bool TryParseBody(ReadOnlySpan<byte> body, out bool join, out ReadOnlySpan<byte> group)
    {
        if (ZmtpCommandCodec.TryParse(body, out var command))
        {
            join = command.Is(ZmtpCommandNames.Join);
            if (join || command.Is(ZmtpCommandNames.Leave))
            {
                group = command.Data;
                return true;
            }
        }

        join = false;
        group = default;
        return false;
    }

    private static ReadOnlySpan<byte> GetName(bool join) => join ? ZmtpCommandNames.Join : ZmtpCommandNames.Leave;
}
