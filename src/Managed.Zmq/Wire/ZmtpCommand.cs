using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Wire;

/// <summary>A command frame's body split into name and data (RFC 23 §Formal Grammar: command-body).</summary>
internal readonly ref struct ZmtpCommand
{
    /// <summary>Creates a command view over existing octets.</summary>
    public ZmtpCommand(ReadOnlySpan<byte> name, ReadOnlySpan<byte> data)
    {
        Name = name;
        Data = data;
    }

    /// <summary>The command name, without its length octet.</summary>
    public ReadOnlySpan<byte> Name { get; }

    /// <summary>Everything after the name.</summary>
    public ReadOnlySpan<byte> Data { get; }

    /// <summary>True when the name equals <paramref name="name"/> exactly (command names are case-sensitive).</summary>
    public bool Is(ReadOnlySpan<byte> name) => Name.SequenceEqual(name);
}
