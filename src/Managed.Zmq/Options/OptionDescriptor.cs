using Managed.Zmq.Buffers;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Options;

/// <summary>One row of <see cref="OptionTable"/>: everything needed to validate an access before touching storage.</summary>
internal readonly struct OptionDescriptor
{
    /// <summary>Bit mask with every <see cref="Managed.Zmq.SocketType"/> allowed.</summary>
    public const uint AnySocketType = uint.MaxValue;

    public OptionDescriptor(OptionKind kind, OptionAccess access, long min, long max, long defaultValue, uint socketTypes, int slot, bool acceptsWiderBuffer)
    {
        Kind = kind;
        Access = access;
        Min = min;
        Max = max;
        DefaultValue = defaultValue;
        SocketTypes = socketTypes;
        Slot = slot;
        AcceptsWiderBuffer = acceptsWiderBuffer;
    }

    /// <summary>Shape of the value.</summary>
    public OptionKind Kind { get; }

    /// <summary>Allowed directions.</summary>
    public OptionAccess Access { get; }

    /// <summary>Smallest value (integers) or length in bytes (bytes, strings) accepted by a write.</summary>
    public long Min { get; }

    /// <summary>Largest value (integers) or length in bytes (bytes, strings) accepted by a write.</summary>
    public long Max { get; }

    /// <summary>Initial value of an integer option.</summary>
    public long DefaultValue { get; }

    /// <summary>Bit <c>1 &lt;&lt; (int)SocketType</c> is set for each socket type that accepts the option.</summary>
    public uint SocketTypes { get; }

    /// <summary>Index into the byte-valued storage for <see cref="OptionKind.Bytes"/>, <see cref="OptionKind.String"/> and <see cref="OptionKind.CurveKey"/>; -1 otherwise.</summary>
    public int Slot { get; }

    /// <summary>
    /// A read may use a buffer wider than 4 bytes; the value fills the low bytes and the length is 4.
    /// libzmq answers Rcvmore, Fd, Events and Thread_Safe this way, unlike every other integer option.
    /// </summary>
    public bool AcceptsWiderBuffer { get; }

    public bool CanRead => (Access & OptionAccess.Read) != 0;

    public bool CanWrite => (Access & OptionAccess.Write) != 0;

    public bool Allows(SocketType socketType) => (SocketTypes & (1u << (int)socketType)) != 0;
}
