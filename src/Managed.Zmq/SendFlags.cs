namespace Managed.Zmq;

/// <summary>Flags that modify a send.</summary>
[Flags]
public enum SendFlags
{
    /// <summary>A blocking send of the last (or only) frame of a message.</summary>
    None = 0,

    /// <summary>Never wait: report "would block" instead (see each <c>Send</c> overload for how).</summary>
    DontWait = 1,

    /// <summary>More frames of the same message follow this one.</summary>
    SendMore = 2,
}
