using Managed.Zmq.Engine;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Engine;

/// <summary>
/// When the kernel takes only part of a direct write, the messages that went out whole are
/// consumed at once and only the message that was cut is left for the write loop, so a connection
/// lost meanwhile resends that message whole and nothing that already went out.
/// </summary>
public sealed class DirectWriteTests
{
    private static byte[] Frames(params (int Size, bool More, bool Command)[] frames)
    {
        var bytes = new List<byte>();
        foreach (var (size, more, command) in frames)
        {
            var frame = new byte[ZmtpFrame.GetHeaderLength(size) + size];
            var flags = (more ? ZmtpFrameFlags.More : ZmtpFrameFlags.None) | (command ? ZmtpFrameFlags.Command : ZmtpFrameFlags.None);
            ZmtpFrame.WriteHeader(frame, size, flags);
            bytes.AddRange(frame);
        }

        return [.. bytes];
    }

    [Fact]
    public void WholeMessagesIn_CutInsideSecondMessage_FirstOnly()
    {
        // [2+10] [2+5 more][2+7]: a 12-byte message, then a 16-byte two-frame one.
        byte[] batch = Frames((10, false, false), (5, true, false), (7, false, false));

        Assert.Equal(12, ZmtpConnection.WholeMessagesIn(batch.AsSpan(0, 20), out int messages));
        Assert.Equal(1, messages);
        Assert.Equal(0, ZmtpConnection.WholeMessagesIn(batch.AsSpan(0, 11), out messages));
        Assert.Equal(0, messages);
        Assert.Equal(28, ZmtpConnection.WholeMessagesIn(batch, out messages));
        Assert.Equal(2, messages);
    }

    [Fact]
    public void WholeMessagesIn_CommandThenCutMessage_CommandConsumedButNotCounted()
    {
        byte[] batch = Frames((3, false, true), (300, false, false));

        Assert.Equal(5, ZmtpConnection.WholeMessagesIn(batch.AsSpan(0, 100), out int messages));
        Assert.Equal(0, messages);
    }

    [Fact]
    public void WholeMessagesIn_CutInsideLongHeader_NothingWhole()
    {
        byte[] batch = Frames((300, false, false));

        Assert.Equal(0, ZmtpConnection.WholeMessagesIn(batch.AsSpan(0, 5), out int messages));
        Assert.Equal(0, messages);
    }
}
