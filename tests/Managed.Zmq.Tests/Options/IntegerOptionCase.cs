
using Managed.Zmq.Options;

namespace Managed.Zmq.Tests.Options;

/// <summary>
/// One integer row of the option table (docs/options.md), restated independently of <see cref="OptionTable"/> so the tests check the table
/// rather than echo it. <see cref="SocketType"/> is a type that accepts the option; Min/Max bound valid writes.
/// </summary>
internal sealed record IntegerOptionCase(
    string Name,
    int Option,
    int Width,
    long Default,
    OptionAccess Access,
    SocketType SocketType,
    long Min,
    long Max,
    long[] Samples)
{
    public bool CanRead => (Access & OptionAccess.Read) != 0;

    public bool CanWrite => (Access & OptionAccess.Write) != 0;

    public long WidthMin => Width == sizeof(long) ? long.MinValue : int.MinValue;

    public long WidthMax => Width == sizeof(long) ? long.MaxValue : int.MaxValue;

    /// <summary>
    /// What a read returns after writing <paramref name="value"/>: Heartbeat_Ttl keeps whole deciseconds only, and
    /// Multicast_Loop and Invert_Matching are booleans (libzmq's relaxed ones: any non-zero value reads back as 1).
    /// </summary>
    public long ReadBack(long value) => Option switch
    {
        OptionId.HeartbeatTtl => value - (value % 100),
        OptionId.MulticastLoop or OptionId.InvertMatching => value != 0 ? 1 : 0,
        _ => value,
    };

    public override string ToString() => Name;
}
