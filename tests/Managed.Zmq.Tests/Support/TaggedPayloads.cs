using System.Runtime.InteropServices;
using Managed.Zmq.Buffers;

namespace Managed.Zmq.Tests.Support;

/// <summary>Payloads of one native byte each, holding a tag, whose releases are recorded in order.</summary>
internal sealed unsafe class TaggedPayloads
{
    /// <summary>The tags of the payloads released so far, in release order.</summary>
    public List<int> Released { get; } = new();

    public OutboundPayload Create(int tag)
    {
        var memory = (byte*)NativeMemory.Alloc(1);
        *memory = (byte)tag;
        var payload = OutboundPayload.Create(memory, 1, hasHeadroom: false);
        payload.AdoptCallback(data =>
        {
            lock (Released)
            {
                Released.Add(*(byte*)data);
            }

            NativeMemory.Free((void*)data);
        });
        return payload;
    }

    public static int TagOf(OutboundPayload payload) => payload.Span[0];
}
