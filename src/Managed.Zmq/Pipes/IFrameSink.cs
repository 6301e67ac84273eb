namespace Managed.Zmq.Pipes;

/// <summary>
/// Where a received frame goes: a caller's span, a Message, a new array. Patterns hand the frame
/// over while it still lies in the inbound queue, so it is copied once, straight to its destination.
/// </summary>
internal interface IFrameSink
{
    /// <summary>Takes the frame (its bytes, MORE, metadata, and a large frame's buffer where it may have it).</summary>
    void Deliver(in InboundFrame frame);
}
