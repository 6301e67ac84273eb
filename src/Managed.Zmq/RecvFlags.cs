namespace Managed.Zmq;

/// <summary>Flags that modify a receive.</summary>
[Flags]
public enum RecvFlags
{
    /// <summary>A blocking receive, bounded by the socket's receive timeout.</summary>
    None = 0,

    /// <summary>Never wait: report "would block" instead (see each <c>Recv</c> overload for how).</summary>
    DontWait = 1,
}
