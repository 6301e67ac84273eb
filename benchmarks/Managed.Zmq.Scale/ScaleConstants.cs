namespace Managed.Zmq.Scale;

/// <summary>The scale tool's fixed policy, in one place; sizes and durations that vary are in <see cref="ScaleOptions"/>.</summary>
internal static class ScaleConstants
{
    /// <summary>Both servers' PUB/XPUB send one tick per this many milliseconds; the subscriber measures the gaps between ticks.</summary>
    public const int TickMilliseconds = 1;

    /// <summary>An XPUB server reads at most this many subscription messages between two ticks (the same in the Python server).</summary>
    public const int XpubDrainPerTick = 1000;

    /// <summary>How long a server may take to print <c>ready</c>.</summary>
    public static readonly TimeSpan ServerStartTimeout = TimeSpan.FromSeconds(20);

    /// <summary>How long a control command (<c>gc</c>, <c>stats</c>) may take before the server counts as stalled.</summary>
    public static readonly TimeSpan ControlTimeout = TimeSpan.FromSeconds(30);

    /// <summary>One round trip, connect or handshake step longer than this counts as stalled.</summary>
    public static readonly TimeSpan StepTimeout = TimeSpan.FromSeconds(5);

    /// <summary>Raw connections opened at once while building up idle connections or flooding.</summary>
    public const int ConnectConcurrency = 64;

    /// <summary>The server's <c>gc</c> waits until the JIT has compiled nothing for this long...</summary>
    public static readonly TimeSpan JitQuietPeriod = TimeSpan.FromMilliseconds(500);

    /// <summary>...or this long has passed.</summary>
    public static readonly TimeSpan JitQuietBound = TimeSpan.FromSeconds(5);

    /// <summary>How often the driver samples the server's RSS and liveness during a scenario.</summary>
    public static readonly TimeSpan SampleInterval = TimeSpan.FromMilliseconds(200);

    /// <summary>The size of one unknown command frame in the command flood (a long frame: 9 header bytes plus this).</summary>
    public const int CommandFrameBody = 16 * 1024;

    /// <summary>Largest TTL a PING carries (RFC 37: 16 bits, tenths of a second).</summary>
    public const ushort MaxPingTtl = 0xFFFF;

    /// <summary>PLAIN credentials the PLAIN churn server accepts.</summary>
    public const string PlainUser = "scale", PlainPassword = "scale-password";
}
