using System.Buffers.Binary;
using Managed.Zmq.Internal;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq;

/// <summary>One socket monitor report: the event, its value and the endpoint address it concerns.</summary>
/// <remarks>
/// A monitor report arrives as two frames: a 6-byte frame (uint16 event id then int32 value, both little-endian) and
/// the address as UTF-8 text. <see cref="Parse(ReadOnlySpan{byte}, string)"/> decodes the first frame.
/// </remarks>
public readonly record struct SocketMonitorEventData
{
    private const int EventFrameLength = 6;

    /// <summary>Initializes a new instance from its parts.</summary>
    /// <param name="event">The event that occurred.</param>
    /// <param name="value">The event's value: an OS handle, an error number, an interval or a protocol error.</param>
    /// <param name="address">The endpoint address the event concerns.</param>
    public SocketMonitorEventData(SocketMonitorEvent @event, int value, string address)
    {
        Event = @event;
        Value = value;
        Address = address;
    }

    /// <summary>Gets the event that occurred; handshake events have no name and appear as numeric values.</summary>
    public SocketMonitorEvent Event { get; }

    /// <summary>Gets the event's value (see the monitor stream description for its meaning per event).</summary>
    public int Value { get; }

    /// <summary>Gets the endpoint address the event concerns.</summary>
    public string Address { get; }

    /// <summary>Decodes a monitor event frame.</summary>
    /// <param name="eventFrame">The 6-byte event frame.</param>
    /// <param name="address">The address from the second frame.</param>
    /// <returns>The decoded event.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="address"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="eventFrame"/> is not exactly 6 bytes long.</exception>
    public static SocketMonitorEventData Parse(ReadOnlySpan<byte> eventFrame, string address)
    {
        if (address is null)
        {
            ThrowHelper.ThrowArgumentNullException(nameof(address));
        }

        if (eventFrame.Length != EventFrameLength)
        {
            ThrowHelper.ThrowArgumentException(
                "Event frame must be exactly 6 bytes (2 bytes for event + 4 bytes for value).", nameof(eventFrame));
        }

        var monitorEvent = (SocketMonitorEvent)BinaryPrimitives.ReadUInt16LittleEndian(eventFrame);
        int value = BinaryPrimitives.ReadInt32LittleEndian(eventFrame[2..]);
        return new SocketMonitorEventData(monitorEvent, value, address);
    }

    /// <summary>Decodes a monitor event frame held in an array.</summary>
    /// <param name="eventFrame">The 6-byte event frame.</param>
    /// <param name="address">The address from the second frame.</param>
    /// <returns>The decoded event.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="eventFrame"/> or <paramref name="address"/> is null.</exception>
    /// <exception cref="ArgumentException"><paramref name="eventFrame"/> is not exactly 6 bytes long.</exception>
    public static SocketMonitorEventData Parse(byte[] eventFrame, string address)
    {
        if (eventFrame is null)
        {
            ThrowHelper.ThrowArgumentNullException(nameof(eventFrame));
        }

        return Parse(new ReadOnlySpan<byte>(eventFrame), address);
    }
}
