using System.Diagnostics.Metrics;

using Managed.Zmq.Internal;

namespace Managed.Zmq.Diagnostics;

/// <summary>
/// The library's metrics, through the in-box <see cref="System.Diagnostics.Metrics"/> API: one <see cref="Meter"/>
/// named <c>Managed.Zmq</c>, instruments named and measured in OpenTelemetry's style (docs/observability.md).
/// </summary>
/// <remarks>
/// <para>Nothing here runs per message. Traffic, drops and queue depths are observable instruments: a listener's
/// collection reads the counters the pipes already keep (written per batch by the thread that owns each, see
/// <see cref="Pipes.FrameQueue"/>), so with or without a listener the send and receive paths do no extra work. Rare
/// events (connections, handshake failures, reconnects) are counted where the monitor raises them, after a
/// check of <see cref="Instrument.Enabled"/>, which costs nothing when no listener is attached.</para>
/// <para>Tags are the socket type and the endpoint only (as bound or connected; bounded cardinality): never a
/// peer's address or routing id.</para>
/// </remarks>
internal static class ZmqMetrics
{
    public const string MeterName = "Managed.Zmq";
    public const string SocketTypeTag = "zmq.socket.type";
    public const string EndpointTag = "zmq.endpoint";

    /// <summary>OpenTelemetry's attribute for the class of an error (here: why a handshake failed).</summary>
    public const string ErrorTypeTag = "error.type";

    /// <summary>
    /// The tag of the series that holds the counts of endpoints retired longest ago (<see cref="RetiredTotals{TKey}"/>),
    /// one series per socket type: OpenTelemetry's name for such a series (docs/observability.md, "How many series").
    /// </summary>
    public const string OverflowTag = "otel.metric.overflow";

    /// <summary>
    /// The endpoint key under which <see cref="RetiredTotals{TKey}"/> folds old endpoints' counts. Not an endpoint
    /// (each has a transport prefix, or is empty); measured with <see cref="OverflowTag"/> instead of an endpoint.
    /// </summary>
    public const string OverflowEndpoint = "(overflow)";

    private static readonly Meter s_meter = new(MeterName, typeof(ZmqMetrics).Assembly.GetName().Version?.ToString());

    private static readonly Lock s_lock = new();
    private static readonly List<IMeteredSocket> s_sockets = [];

    /// <summary>
    /// Counts of closed sockets, by socket type and endpoint, so counters never go back; the endpoints retired
    /// longest ago folded into one overflow series per type.
    /// </summary>
    private static readonly RetiredTotals<(string Type, string Endpoint)> s_retired = new(
        Tuning.Metrics.RetiredSeries, static key => (key.Type, OverflowEndpoint));
    private static readonly Dictionary<string, long> s_retiredBlocked = new(StringComparer.Ordinal);

    private static readonly string[] s_typeNames = BuildTypeNames();

    public static readonly Counter<long> ConnectionsOpened = s_meter.CreateCounter<long>(
        "zmq.socket.connections.opened", "{connection}", "Connections made or accepted (the monitor's CONNECTED and ACCEPTED).");

    public static readonly Counter<long> ConnectionsClosed = s_meter.CreateCounter<long>(
        "zmq.socket.connections.closed", "{connection}", "Connections ended, for whatever reason (the monitor's DISCONNECTED).");

    public static readonly Counter<long> HandshakeFailures = s_meter.CreateCounter<long>(
        "zmq.socket.handshake.failures", "{handshake}", "Handshakes that failed, by error.type: timeout, connection_reset, protocol, auth.");

    public static readonly Counter<long> ReconnectAttempts = s_meter.CreateCounter<long>(
        "zmq.socket.reconnect.attempts", "{attempt}", "Reconnections scheduled after a failed or lost connection (the monitor's CONNECT_RETRIED).");

    static ZmqMetrics()
    {
        s_meter.CreateObservableCounter("zmq.socket.messages.sent", () => Observe(static t => t.MessagesSent), "{message}",
            "Messages sent: handed to the OS (tcp, ipc) or to the peer's queue (inproc).");
        s_meter.CreateObservableCounter("zmq.socket.messages.received", () => Observe(static t => t.MessagesReceived), "{message}",
            "Messages received into the socket's inbound queues.");
        s_meter.CreateObservableCounter("zmq.socket.bytes.sent", () => Observe(static t => t.BytesSent), "By",
            "Bytes sent, ZMTP frame headers included (inproc: frame bodies).");
        s_meter.CreateObservableCounter("zmq.socket.bytes.received", () => Observe(static t => t.BytesReceived), "By",
            "Bytes received, ZMTP frame headers included (inproc: frame bodies).");
        s_meter.CreateObservableCounter("zmq.socket.messages.dropped", () => Observe(static t => t.MessagesDropped), "{message}",
            "Messages dropped at a peer's HWM (PUB, XPUB, ROUTER without Router_Mandatory).");
        s_meter.CreateObservableCounter("zmq.socket.sends.blocked", ObserveBlocked, "{send}",
            "Sends that found the socket unable to send (HWM reached or no peer): they waited, or failed with EAGAIN.");
        s_meter.CreateObservableUpDownCounter("zmq.socket.queue.inbound.messages", () => Observe(static t => t.InboundMessages), "{message}",
            "Messages received and not yet read.");
        s_meter.CreateObservableUpDownCounter("zmq.socket.queue.inbound.bytes", () => Observe(static t => t.InboundBytes), "By",
            "Bytes received and not yet read.");
        s_meter.CreateObservableUpDownCounter("zmq.socket.queue.outbound.messages", () => Observe(static t => t.OutboundMessages), "{message}",
            "Messages queued to peers and not yet sent.");
        s_meter.CreateObservableUpDownCounter("zmq.socket.queue.outbound.bytes", () => Observe(static t => t.OutboundBytes), "By",
            "Bytes queued to peers and not yet sent.");
    }

    /// <summary>The <c>zmq.socket.type</c> value of <paramref name="type"/>, one string per type.</summary>
    public static string TypeTag(SocketType type) => (uint)type < (uint)s_typeNames.Length ? s_typeNames[(int)type] : type.ToString();

    public static void Register(IMeteredSocket socket)
    {
        lock (s_lock)
        {
            s_sockets.Add(socket);
        }
    }

    /// <summary>Sockets registered and not yet closed, in the whole process. Tests.</summary>
    public static int RegisteredSocketCount
    {
        get
        {
            lock (s_lock)
            {
                return s_sockets.Count;
            }
        }
    }

    /// <summary>The socket closed: what it counted stays in the totals of its type and endpoints.</summary>
    public static void Unregister(IMeteredSocket socket)
    {
        var totals = new Dictionary<string, PipeTotals>(StringComparer.Ordinal);
        lock (s_lock)
        {
            if (!s_sockets.Remove(socket))
            {
                return;
            }

            // Under the lock, as a collection reads it: a collection between this read and the move into the
            // retired totals would otherwise see counts made in between go back.
            socket.Collect(totals);

            foreach (var (endpoint, counts) in totals)
            {
                s_retired.Add((socket.TypeName, endpoint), counts);
            }

            s_retiredBlocked[socket.TypeName] = s_retiredBlocked.GetValueOrDefault(socket.TypeName) + socket.BlockedSends;
        }
    }

    /// <summary>A monitor event: counts the ones that have an instrument. Cheap when nobody listens.</summary>
    public static void OnSocketEvent(string typeName, int @event, int value, string endpoint)
    {
        switch (@event)
        {
            case SocketMonitor.Connected or SocketMonitor.Accepted when ConnectionsOpened.Enabled:
                ConnectionsOpened.Add(1, new(SocketTypeTag, typeName), new(EndpointTag, endpoint));
                break;
            case SocketMonitor.Disconnected when ConnectionsClosed.Enabled:
                ConnectionsClosed.Add(1, new(SocketTypeTag, typeName), new(EndpointTag, endpoint));
                break;
            case SocketMonitor.ConnectRetried when ReconnectAttempts.Enabled:
                ReconnectAttempts.Add(1, new(SocketTypeTag, typeName), new(EndpointTag, endpoint));
                break;
            case SocketMonitor.HandshakeFailedNoDetail or SocketMonitor.HandshakeFailedProtocol or SocketMonitor.HandshakeFailedAuth
                when HandshakeFailures.Enabled:
                string reason = @event switch
                {
                    SocketMonitor.HandshakeFailedProtocol => "protocol",
                    SocketMonitor.HandshakeFailedAuth => "auth",
                    _ when value == ZmqConstants.EAGAIN => "timeout",
                    _ => "connection_reset",
                };
                HandshakeFailures.Add(1, new(SocketTypeTag, typeName), new(EndpointTag, endpoint), new(ErrorTypeTag, reason));
                break;
        }
    }

    /// <summary>Collector thread: one measurement per socket type and endpoint.</summary>
    private static List<Measurement<long>> Observe(Func<PipeTotals, long> select)
    {
        var sums = new Dictionary<(string Type, string Endpoint), PipeTotals>();
        var perSocket = new Dictionary<string, PipeTotals>(StringComparer.Ordinal);
        lock (s_lock)
        {
            s_retired.CopyTo(sums);

            foreach (var socket in s_sockets)
            {
                perSocket.Clear();
                socket.Collect(perSocket);
                foreach (var (endpoint, totals) in perSocket)
                {
                    var key = (socket.TypeName, endpoint);
                    sums.TryGetValue(key, out var sum);
                    sum.AddCounts(totals);
                    sum.InboundMessages += totals.InboundMessages;
                    sum.InboundBytes += totals.InboundBytes;
                    sum.OutboundMessages += totals.OutboundMessages;
                    sum.OutboundBytes += totals.OutboundBytes;
                    sums[key] = sum;
                }
            }
        }

        var measurements = new List<Measurement<long>>(sums.Count);
        foreach (var ((type, endpoint), totals) in sums)
        {
            measurements.Add(endpoint == OverflowEndpoint
                ? new Measurement<long>(select(totals), new(SocketTypeTag, type), new(OverflowTag, true))
                : new Measurement<long>(select(totals), new(SocketTypeTag, type), new(EndpointTag, endpoint)));
        }

        return measurements;
    }

    private static List<Measurement<long>> ObserveBlocked()
    {
        var sums = new Dictionary<string, long>(StringComparer.Ordinal);
        lock (s_lock)
        {
            foreach (var (type, blocked) in s_retiredBlocked)
            {
                sums[type] = blocked;
            }

            foreach (var socket in s_sockets)
            {
                sums[socket.TypeName] = sums.GetValueOrDefault(socket.TypeName) + socket.BlockedSends;
            }
        }

        var measurements = new List<Measurement<long>>(sums.Count);
        foreach (var (type, blocked) in sums)
        {
            measurements.Add(new Measurement<long>(blocked, new KeyValuePair<string, object?>(SocketTypeTag, type)));
        }

        return measurements;
    }

    private static string[] BuildTypeNames()
    {
        // A loop rather than LINQ's Max: this runs in every process that opens a socket, and
        // System.Linq would be loaded (and stay resident) for this line alone.
        var types = Enum.GetValues<SocketType>();
        int highest = 0;
        foreach (var type in types)
        {
            highest = Math.Max(highest, (int)type);
        }

        var names = new string[highest + 1];
        foreach (var type in types)
        {
            // The ZMTP Socket-Type name (RFC 23: PAIR, XPUB, ...) is the member's name in capitals, for
            // STREAM too, which has none on the wire; spelled here so that metrics need no codec.
            names[(int)type] = type.ToString().ToUpperInvariant();
        }

        return names;
    }
}
