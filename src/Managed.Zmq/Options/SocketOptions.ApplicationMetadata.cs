using Managed.Zmq.Wire;
using Managed.Zmq.Buffers;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Options;

/// <summary>The Metadata option (libzmq's ZMQ_METADATA): application properties sent in the handshake.</summary>
internal sealed partial class SocketOptions
{
    /// <summary>The prefix libzmq requires of an application property's name, compared case-sensitively as libzmq does.</summary>
    private static ReadOnlySpan<byte> ApplicationPrefix => "X-"u8;

    /// <summary>
    /// The properties set with the Metadata option, encoded as RFC 23 properties in name order (libzmq keeps them in
    /// an ordered map and sends them in that order), ready to append to READY or INITIATE. Empty when none is set.
    /// </summary>
    public byte[] ApplicationMetadata { get; private set; } = [];

    /// <summary>
    /// Adds one "X-name:value" property, with libzmq 4.3's rules: the name starts with "X-" and is at most 255 octets,
    /// the colon is neither first nor last, a 4-byte value is refused (libzmq takes that length for an integer), and a
    /// name already set keeps its first value (libzmq's map insert does not replace). The value ends at a NUL, as
    /// libzmq sends it as a C string.
    /// </summary>
    private int TryAddApplicationProperty(ReadOnlySpan<byte> value)
    {
        int colon = value.IndexOf((byte)':');
        if (value.Length == sizeof(int) || colon <= 0 || colon == value.Length - 1)
        {
            return OptionStatus.InvalidArgument;
        }

        ReadOnlySpan<byte> name = value[..colon];
        if (!name.StartsWith(ApplicationPrefix) || name.Length > ZmtpMetadata.MaxNameLength)
        {
            return OptionStatus.InvalidArgument;
        }

        ReadOnlySpan<byte> text = value[(colon + 1)..];
        int nul = text.IndexOf((byte)0);
        if (nul >= 0)
        {
            text = text[..nul];
        }

        int index = 0;
        while (index < _applicationProperties.Length)
        {
            int order = name.SequenceCompareTo(_applicationProperties[index].Name);
            if (order == 0)
            {
                return OptionStatus.Ok;
            }

            if (order < 0)
            {
                break;
            }

            index++;
        }

        var properties = new ApplicationProperty[_applicationProperties.Length + 1];
        _applicationProperties.AsSpan(0, index).CopyTo(properties);
        properties[index] = new ApplicationProperty(name.ToArray(), text.ToArray());
        _applicationProperties.AsSpan(index).CopyTo(properties.AsSpan(index + 1));
        _applicationProperties = properties;
        ApplicationMetadata = Encode(properties);
        return OptionStatus.Ok;
    }

    private static byte[] Encode(ApplicationProperty[] properties)
    {
        int length = 0;
        foreach (ApplicationProperty property in properties)
        {
            length += ZmtpMetadata.GetPropertyLength(property.Name.Length, property.Value.Length);
        }

        var encoded = new byte[length];
        int written = 0;
        foreach (ApplicationProperty property in properties)
        {
            written += ZmtpMetadata.WriteProperty(encoded.AsSpan(written), property.Name, property.Value);
        }

        return encoded;
    }

    /// <summary>One property of the Metadata option.</summary>
    private readonly record struct ApplicationProperty(byte[] Name, byte[] Value);
}
