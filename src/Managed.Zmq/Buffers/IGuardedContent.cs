namespace Managed.Zmq.Buffers;

/// <summary>
/// What a <see cref="MessageGuard"/> watches: something holding native content (the public Message)
/// that must give it back if it is collected without being disposed.
/// </summary>
internal interface IGuardedContent
{
    /// <summary>Finalizer thread: releases the content of an owner nothing can reach any more.</summary>
    void ReleaseLostContent();
}
