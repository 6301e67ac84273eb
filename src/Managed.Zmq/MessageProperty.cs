namespace Managed.Zmq;

/// <summary>Properties that <see cref="Message.GetProperty(MessageProperty)"/> can read.</summary>
public enum MessageProperty
{
    /// <summary>1 if more frames of the same message follow, else 0.</summary>
    More = 1,

    /// <summary>1 if the content buffer is shared with another live <see cref="Message"/>, else 0.</summary>
    Shared = 3,
}
