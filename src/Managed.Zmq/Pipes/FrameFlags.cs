namespace Managed.Zmq.Pipes;

/// <summary>What a frame is, as pipes and patterns see it: part of a message, or a command between messages.</summary>
[Flags]
internal enum FrameFlags : byte
{
    /// <summary>The last (or only) frame of a message.</summary>
    None = 0,

    /// <summary>More frames of the same message follow.</summary>
    More = 1,

    /// <summary>A command (a subscription change) rather than message data; it does not count against the HWM.</summary>
    Command = 4,
}
