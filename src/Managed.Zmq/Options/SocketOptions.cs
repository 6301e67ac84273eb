using System.Diagnostics;
using System.Text;
using Managed.Zmq.Buffers;
using Managed.Zmq.Internal;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Options;

/// <summary>
/// One socket's option values, with libzmq 4.3's setsockopt/getsockopt rules (docs/options.md).
/// </summary>
/// <remarks>
/// <para>
/// Every raw access is validated once, against <see cref="OptionTable"/>, and then lands in typed storage:
/// integers in an array indexed by option number, byte values in a short array of immutable arrays.
/// The engine and the patterns read the typed properties, which neither validate nor allocate.
/// </para>
/// <para>
/// Not thread-safe, like the socket that owns it. Connections should take a <see cref="Clone"/> when they start,
/// because options apply to connections made afterwards.
/// </para>
/// </remarks>
internal sealed partial class SocketOptions
{
    /// <summary>The value of a CURVE key nobody has set. Shared: stored arrays are replaced, never written to.</summary>
    private static readonly byte[] s_zeroKey = new byte[CurveKeyText.KeyLength];

    /// <summary>Integer values indexed by <see cref="OptionId.StorageIndex"/>; rows that are not integers are unused.</summary>
    private readonly long[] _scalars;

    /// <summary>Byte values indexed by <see cref="OptionDescriptor.Slot"/>; null means "none" (Connect_Routing_Id, Xpub_Welcome_Msg).</summary>
    private readonly byte[]?[] _blobs;

    /// <summary>UTF-8 decoding of the text slots, made when they are set so that reads do not allocate.</summary>
    private readonly string[] _texts;

    /// <summary>NULL, PLAIN or CURVE, as the security options last left it.</summary>
    private ZmtpMechanism _mechanism = ZmtpMechanism.Null;

    /// <summary>Raw server flag, set by Plain_Server/Curve_Server and cleared by the client-side options.</summary>
    private bool _asServer;

    /// <summary>The Metadata option's properties in name order; replaced, never changed, so clones can share it.</summary>
    private ApplicationProperty[] _applicationProperties = [];

    public SocketOptions(SocketType socketType, bool ipv6Default)
    {
        Debug.Assert(SocketTypeFacts.IsSupported(socketType), "The socket validates its type before creating options.");

        SocketType = socketType;
        _scalars = OptionTable.CreateDefaultScalars();
        _scalars[OptionId.Type] = (int)socketType;

        // libzmq's ZMQ_THREAD_SAFE: 1 for the draft types several threads may use at once.
        _scalars[OptionId.ThreadSafe] = SocketTypeFacts.IsThreadSafe(socketType) ? 1 : 0;
        _scalars[OptionId.Ipv6] = ipv6Default ? 1 : 0;

        // libzmq's DISH starts with ZMQ_LINGER 0: all it ever queues is JOINs, which must not hold up a close.
        if (socketType == SocketType.Dish)
        {
            _scalars[OptionId.Linger] = 0;
        }

        _blobs = new byte[]?[OptionTable.BlobSlotCount];
        _texts = new string[OptionTable.TextSlotCount];
        for (int slot = 0; slot < OptionTable.TextSlotCount; slot++)
        {
            _blobs[slot] = [];
            _texts[slot] = string.Empty;
        }

        _blobs[OptionTable.RoutingIdSlot] = [];
        _blobs[OptionTable.CurvePublicKeySlot] = s_zeroKey;
        _blobs[OptionTable.CurveSecretKeySlot] = s_zeroKey;
        _blobs[OptionTable.CurveServerKeySlot] = s_zeroKey;
    }

    private SocketOptions(SocketOptions source)
    {
        SocketType = source.SocketType;
        _scalars = (long[])source._scalars.Clone();
        _blobs = (byte[]?[])source._blobs.Clone();
        _texts = (string[])source._texts.Clone();
        _mechanism = source._mechanism;
        _asServer = source._asServer;
        _applicationProperties = source._applicationProperties;
        ApplicationMetadata = source.ApplicationMetadata;
    }

    public SocketType SocketType { get; }

    /// <summary>The security mechanism new connections use: NULL, PLAIN or CURVE.</summary>
    public ZmtpMechanism Mechanism => _mechanism;

    /// <summary>CURVE encrypts every frame, so a caller's bytes never go to the wire as they are.</summary>
    public bool EncryptsFrames => _mechanism == ZmtpMechanism.Curve;

    /// <summary>True when this socket takes the server role of PLAIN or CURVE. Never true for NULL.</summary>
    public bool AsServer => _asServer && _mechanism != ZmtpMechanism.Null;

    public static OptionKind GetKind(int option) => OptionTable.Get(option).Kind;

    /// <summary>A snapshot for a connection that is starting; later changes to this instance do not reach it.</summary>
    public SocketOptions Clone() => new(this);

    /// <summary>
    /// Returns the routing id to give the peer of the next Connect, and forgets it: libzmq applies it to one connect only.
    /// </summary>
    public byte[]? TakeConnectRoutingId()
    {
        byte[]? routingId = _blobs[OptionTable.ConnectRoutingIdSlot];
        _blobs[OptionTable.ConnectRoutingIdSlot] = null;
        return routingId;
    }

    /// <summary>
    /// Sets an option from its raw bytes: integers in host order and exactly their width, byte values with any length
    /// the table allows. Returns <see cref="OptionStatus.Ok"/>, <see cref="OptionStatus.HandledBySocket"/> (Subscribe,
    /// Unsubscribe) or an errno; never throws.
    /// </summary>
    public int TrySet(int option, ReadOnlySpan<byte> value)
    {
        ref readonly OptionDescriptor row = ref OptionTable.Get(option);
        if (!row.CanWrite || !row.Allows(SocketType))
        {
            return OptionStatus.InvalidArgument;
        }

        switch (row.Kind)
        {
            case OptionKind.Int32:
                if (value.Length != sizeof(int))
                {
                    return OptionStatus.InvalidArgument;
                }

                return TrySetScalar(option, row, OptionValue.ReadInt32(value));

            case OptionKind.Int64:
                if (value.Length != sizeof(long))
                {
                    return OptionStatus.InvalidArgument;
                }

                return TrySetScalar(option, row, OptionValue.ReadInt64(value));

            case OptionKind.Bytes:
            case OptionKind.String:
                if (value.Length < row.Min || value.Length > row.Max)
                {
                    return OptionStatus.InvalidArgument;
                }

                SetBlob(option, row, value);
                return OptionStatus.Ok;

            case OptionKind.CurveKey:
                return TrySetCurveKey(option, row.Slot, value);

            case OptionKind.ApplicationProperty:
                return TryAddApplicationProperty(value);

            case OptionKind.Action:
                // Subscriptions go to SUB, or to an XPUB whose application manages them itself.
                return SocketType == SocketType.XPub && !XpubManual
                    ? OptionStatus.InvalidArgument
                    : OptionStatus.HandledBySocket;

            default:
                Debug.Fail($"Option {option} is writable but of kind {row.Kind}.");
                return OptionStatus.InvalidArgument;
        }
    }

    /// <summary>
    /// Reads an option into <paramref name="buffer"/>. Integers need a buffer of exactly their width (Rcvmore, Fd,
    /// Events and Thread_Safe accept wider ones); strings need room for a NUL, which <paramref name="length"/> counts;
    /// Routing_Id returns its exact length; CURVE keys need exactly 32 (raw) or 41 (Z85 and NUL) bytes.
    /// Returns <see cref="OptionStatus.Ok"/>, <see cref="OptionStatus.HandledBySocket"/> (values the socket computes)
    /// or an errno; never throws.
    /// </summary>
    public int TryGet(int option, Span<byte> buffer, out int length)
    {
        length = 0;
        ref readonly OptionDescriptor row = ref OptionTable.Get(option);
        if (!row.CanRead || !row.Allows(SocketType))
        {
            return OptionStatus.InvalidArgument;
        }

        switch (row.Kind)
        {
            case OptionKind.Int32:
                if (row.AcceptsWiderBuffer)
                {
                    return OptionValue.TryWriteInt32Widened(buffer, (int)GetScalar(option), out length);
                }

                if (buffer.Length != sizeof(int))
                {
                    return OptionStatus.InvalidArgument;
                }

                OptionValue.WriteInt32(buffer, (int)GetScalar(option));
                length = sizeof(int);
                return OptionStatus.Ok;

            case OptionKind.Int64:
                if (buffer.Length != sizeof(long))
                {
                    return OptionStatus.InvalidArgument;
                }

                OptionValue.WriteInt64(buffer, _scalars[OptionId.StorageIndex(option)]);
                length = sizeof(long);
                return OptionStatus.Ok;

            case OptionKind.Bytes:
                ReadOnlySpan<byte> bytes = _blobs[row.Slot];
                if (buffer.Length < bytes.Length)
                {
                    return OptionStatus.InvalidArgument;
                }

                bytes.CopyTo(buffer);
                length = bytes.Length;
                return OptionStatus.Ok;

            case OptionKind.String:
                return OptionValue.TryWriteString(buffer, _blobs[row.Slot], out length);

            case OptionKind.CurveKey:
                return TryGetCurveKey(_blobs[row.Slot]!, buffer, out length);

            case OptionKind.Computed:
                // Width is checked here so that the socket only has to produce the value.
                return row.AcceptsWiderBuffer && buffer.Length < sizeof(int)
                    ? OptionStatus.InvalidArgument
                    : OptionStatus.HandledBySocket;

            default:
                Debug.Fail($"Option {option} is readable but of kind {row.Kind}.");
                return OptionStatus.InvalidArgument;
        }
    }

    private long GetScalar(int option) => option switch
    {
        OptionId.Mechanism => MechanismNumbers.ToOptionValue(_mechanism),

        // The server flags read 1 only while the socket really is that kind of server.
        OptionId.PlainServer => _asServer && _mechanism == ZmtpMechanism.Plain ? 1 : 0,
        OptionId.CurveServer => _asServer && _mechanism == ZmtpMechanism.Curve ? 1 : 0,
        _ => _scalars[OptionId.StorageIndex(option)],
    };

    private int TrySetScalar(int option, in OptionDescriptor row, long value)
    {
        if (value < row.Min || value > row.Max)
        {
            return OptionStatus.InvalidArgument;
        }

        switch (option)
        {
            case OptionId.HeartbeatTtl:
                // PING carries the TTL in deciseconds, so finer values cannot be honoured; read back what is sent.
                value -= value % 100;
                break;

            case OptionId.MulticastLoop:
            case OptionId.InvertMatching:
                // libzmq keeps these as booleans: any non-zero value is on and reads back as 1.
                value = value != 0 ? 1 : 0;
                break;

            case OptionId.XpubVerbose:
                // Verbose means "subscribes only": it also turns off the unsubscribe half that Verboser adds.
                _scalars[OptionId.XpubVerboser] = 0;
                break;

            case OptionId.XpubVerboser:
                // Verboser covers subscribes as well as unsubscribes.
                _scalars[OptionId.XpubVerbose] = value;
                break;

            // The server flags are not stored as such: reads derive them from the role and mechanism (GetScalar).
            case OptionId.PlainServer:
                _asServer = value != 0;
                _mechanism = value != 0 ? ZmtpMechanism.Plain : ZmtpMechanism.Null;
                return OptionStatus.Ok;

            case OptionId.CurveServer:
                _asServer = value != 0;
                _mechanism = value != 0 ? ZmtpMechanism.Curve : ZmtpMechanism.Null;
                return OptionStatus.Ok;

            case OptionId.MaxConnections when value == 0:
                // A listener that may accept nothing is a mistake (Unbind says that); "no cap" is -1.
                return OptionStatus.InvalidArgument;
        }

        _scalars[OptionId.StorageIndex(option)] = value;
        return OptionStatus.Ok;
    }

    private void SetBlob(int option, in OptionDescriptor row, ReadOnlySpan<byte> value)
    {
        byte[] stored = value.ToArray();
        switch (option)
        {
            case OptionId.XpubWelcomeMessage:
                // An empty welcome message means "no welcome message", not "send an empty frame".
                _blobs[row.Slot] = stored.Length == 0 ? null : stored;
                return;

            case OptionId.PlainUsername:
            case OptionId.PlainPassword:
                // Credentials make the socket a PLAIN client; clearing one goes back to NULL.
                if (stored.Length != 0)
                {
                    _asServer = false;
                    _mechanism = ZmtpMechanism.Plain;
                }
                else
                {
                    _mechanism = ZmtpMechanism.Null;
                }

                break;
        }

        _blobs[row.Slot] = stored;
        if (row.Kind == OptionKind.String)
        {
            _texts[row.Slot] = Encoding.UTF8.GetString(stored);
        }
    }

    private int TrySetCurveKey(int option, int slot, ReadOnlySpan<byte> value)
    {
        var key = new byte[CurveKeyText.KeyLength];
        switch (value.Length)
        {
            case CurveKeyText.KeyLength:
                value.CopyTo(key);
                break;

            case CurveKeyText.TextLength + 1 when value[CurveKeyText.TextLength] == 0:
            case CurveKeyText.TextLength:
                if (!CurveKeyText.TryDecode(value.Slice(0, CurveKeyText.TextLength), key))
                {
                    return OptionStatus.InvalidArgument;
                }

                break;

            default:
                return OptionStatus.InvalidArgument;
        }

        _blobs[slot] = key;
        _mechanism = ZmtpMechanism.Curve;

        // Knowing the server's public key is what makes a CURVE client.
        if (option == OptionId.CurveServerKey)
        {
            _asServer = false;
        }

        return OptionStatus.Ok;
    }

    private static int TryGetCurveKey(ReadOnlySpan<byte> key, Span<byte> buffer, out int length)
    {
        switch (buffer.Length)
        {
            case CurveKeyText.KeyLength:
                key.CopyTo(buffer);
                length = CurveKeyText.KeyLength;
                return OptionStatus.Ok;

            case CurveKeyText.TextLength + 1:
                CurveKeyText.Encode(key, buffer);
                buffer[CurveKeyText.TextLength] = 0;
                length = CurveKeyText.TextLength + 1;
                return OptionStatus.Ok;

            default:
                length = 0;
                return OptionStatus.InvalidArgument;
        }
    }
}
