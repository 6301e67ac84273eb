using System.Reflection;

namespace Managed.Zmq.Tests.Architecture;

/// <summary>
/// Pins the layering of Managed.Zmq: every reference from one of its types to another of its types
/// (found by <see cref="TypeReferenceScanner"/>) must run down an edge of <see cref="Allowed"/>, or
/// stay inside one layer. A layer is a namespace (a folder); <see cref="LayerOf"/> maps them.
/// </summary>
/// <remarks>
/// <code>
/// Api (root, Async/, Polling/)
///  '-> Sockets -+-> Patterns -+-> Inproc -> Pipes -> Buffers -> Low
///               |             +-> Pipes
///               |             '-> Options -> Wire -> Low
///               '-> Endpoints -+-> Engine -+-> Security (+Zap/) -+-> Crypto -> Low
///                              |           |                     '-> Wire
///                              |           +-> Transports -> Options
///                              |           +-> Pipes
///                              |           '-> Wire, Options
///                              '-> Udp (Transports/Udp) -> Engine
/// Low: Threading -> Diagnostics -> Internal (+ the public vocabulary, see Vocabulary)
/// Api and Sockets use Engine through its interfaces and enums only (SeamsOnly).
/// </code>
/// </remarks>
public sealed class LayerTests
{
    /// <summary>
    /// The allowed edges: a layer may use the layers listed for it and, through them, everything
    /// they may use (the closure). Anything else is a leak. The graph must stay acyclic.
    /// </summary>
    private static readonly Dictionary<string, string[]> Allowed = new()
    {
        // Namespaces Managed.Zmq, .Async and .Polling: the public surface. Async and Polling are one
        // layer with the root because they are built on the public types (the async extensions call
        // Socket's non-blocking Send/Recv and return Message/MultipartMessage; Proxy forwards Messages
        // between Sockets), while the root's Poller, Proxy and SocketExtensions call into them.
        ["Api"] = ["Sockets"],
        // Bind and connect create listeners and connecters (Endpoints); the socket core keeps the
        // engine's connections only as IConnection and serves the engine as its IConnectionHost.
        ["Sockets"] = ["Patterns", "Endpoints"],
        ["Patterns"] = ["Pipes", "Inproc", "Options"],
        ["Inproc"] = ["Pipes", "Options"],
        // The stream carrier stores frames in their wire encoding through Wire's QueuedFrame codec,
        // the one place that knows the header layout; no pipe or pattern reads a header itself.
        ["Pipes"] = ["Buffers", "Wire"],
        ["Buffers"] = ["Low"],
        // Options are the socket's settings that every layer under the socket reads, as libzmq hands
        // its options_t down to engines and sessions; validating ZMTP metadata names needs Wire.
        ["Options"] = ["Wire"],
        ["Endpoints"] = ["Engine", "Udp"],
        // udp:// (RADIO/DISH): no ZMTP, so an engine of its own beside ZmtpConnection, serving a stream pipe as one.
        ["Udp"] = ["Engine"],
        // The engine serves a pipe through IPipeEngine.
        ["Engine"] = ["Wire", "Security", "Transports", "Pipes", "Options"],
        // Security.Zap is part of this layer (mechanisms ask ZAP, ZAP reads mechanism metadata); it
        // reaches the handler only through its own IZapEndpoint seam, which the socket layer supplies.
        ["Security"] = ["Crypto", "Wire"],
        ["Crypto"] = ["Low"],
        ["Wire"] = ["Low"],
        ["Transports"] = ["Options"],
        // Threading, Diagnostics, Internal and the public vocabulary (see LowLayers).
        ["Low"] = [],
    };

    /// <summary>
    /// Public types of namespace Managed.Zmq (they stay there: API contract) that are plain vocabulary
    /// every layer may speak: libzmq's socket type and flag numbers, errno constants and the exception
    /// they travel in, Z85 text. They sit at the bottom with Internal: ThrowHelper throws ZmqException,
    /// and ZmqException records LastError.
    /// </summary>
    private static readonly HashSet<string> Vocabulary =
    [
        "Managed.Zmq.SocketType", "Managed.Zmq.PollEvents", "Managed.Zmq.SendFlags", "Managed.Zmq.RecvFlags",
        "Managed.Zmq.ZmqException", "Managed.Zmq.ErrorCode", "Managed.Zmq.ZmqConstants", "Managed.Zmq.Z85",
    ];

    /// <summary>
    /// Edges that run the wrong way today and are known, each with its owner. Checked as they are
    /// (not part of the closure), so nothing else may lean on them.
    /// </summary>
    private static readonly (string From, string To, string Why)[] Temporary =
    [
        // None left: the pattern host, inproc socket and guarded-content seams and the BufferPool
        // under MessagePool removed the last ones. A new entry needs its owner and its fix.
    ];

    /// <summary>
    /// Edges the closure allows that must go through a seam: the user of the lower layer may name its
    /// interfaces and enums only, never a class or struct. The socket core holds its connections as
    /// IConnection and serves them as IConnectionHost; only Endpoints builds a ZmtpConnection.
    /// </summary>
    private static readonly (string From, string To)[] SeamsOnly =
    [
        ("Api", "Engine"),
        ("Sockets", "Engine"),
    ];

    /// <summary>The layer of a type: its namespace's; the vocabulary's is the bottom one.</summary>
    private static string? LayerOf(Type type) =>
        Vocabulary.Contains(type.FullName!) ? "Low" : LayerOf(type.Namespace!);

    /// <summary>Where a type of the bottom layer stands in <see cref="LowLayers"/>: the vocabulary with Internal.</summary>
    private static string LowGroupOf(Type type) =>
        Vocabulary.Contains(type.FullName!) ? "Managed.Zmq.Internal" : type.Namespace!;

    /// <summary>The layer of a namespace below Managed.Zmq.</summary>
    private static string? LayerOf(string ns) => ns switch
    {
        "Managed.Zmq" or "Managed.Zmq.Async" or "Managed.Zmq.Polling" => "Api",
        "Managed.Zmq.Sockets" => "Sockets",
        "Managed.Zmq.Patterns" or "Managed.Zmq.Patterns.Subscriptions" or "Managed.Zmq.Patterns.Groups" => "Patterns",
        "Managed.Zmq.Inproc" => "Inproc",
        "Managed.Zmq.Pipes" => "Pipes",
        "Managed.Zmq.Buffers" => "Buffers",
        "Managed.Zmq.Options" => "Options",
        "Managed.Zmq.Endpoints" => "Endpoints",
        "Managed.Zmq.Engine" => "Engine",
        "Managed.Zmq.Security" or "Managed.Zmq.Security.Zap" => "Security",
        "Managed.Zmq.Security.Crypto" => "Crypto",
        "Managed.Zmq.Wire" => "Wire",
        "Managed.Zmq.Transports" or "Managed.Zmq.Transports.Ws" or "Managed.Zmq.Transports.Tls" => "Transports",
        "Managed.Zmq.Transports.Udp" => "Udp",
        // Everything may use these; they use only each other, one way (see LowLayers).
        "Managed.Zmq.Threading" or "Managed.Zmq.Diagnostics" or "Managed.Zmq.Internal" => "Low",
        _ => null,
    };

    /// <summary>Inside the lowest layer, the one-way order of its three namespaces.</summary>
    private static readonly Dictionary<string, string[]> LowLayers = new()
    {
        ["Managed.Zmq.Threading"] = ["Managed.Zmq.Diagnostics"],
        ["Managed.Zmq.Diagnostics"] = ["Managed.Zmq.Internal"],
        ["Managed.Zmq.Internal"] = [],
    };

    private static readonly Assembly Library = typeof(Context).Assembly;

    [Fact]
    public void Dependencies_EveryEdge_RunsDownTheLayerTable()
    {
        Dictionary<string, HashSet<string>> reach = Closure(Allowed);
        Dictionary<string, HashSet<string>> lowReach = Closure(LowLayers);
        var leaks = new List<string>();
        foreach (Type owner in TypeReferenceScanner.OwnersOf(Library))
        {
            string from = LayerOf(owner)!;
            foreach (Type used in TypeReferenceScanner.ReferencesOf(owner))
            {
                string to = LayerOf(used)!;
                bool allowed = from == to
                    ? from != "Low" || LowGroupOf(owner) == LowGroupOf(used) || lowReach[LowGroupOf(owner)].Contains(LowGroupOf(used))
                    : reach[from].Contains(to) || Temporary.Any(t => t.From == from && t.To == to);
                if (!allowed)
                {
                    leaks.Add($"{owner.FullName} ({from}) -> {used.FullName} ({to})");
                }
                else if (SeamsOnly.Contains((from, to)) && !used.IsInterface && !used.IsEnum)
                {
                    leaks.Add($"{owner.FullName} ({from}) -> {used.FullName} ({to}): only {to}'s interfaces and enums may be used from {from}");
                }
            }
        }

        leaks.Sort(StringComparer.Ordinal);
        Assert.True(leaks.Count == 0, $"{leaks.Count} references against the layer table:\n" + string.Join('\n', leaks));
    }

    [Fact]
    public void Temporary_EveryEdge_StillOccurs()
    {
        var seen = new HashSet<(string, string)>();
        foreach (Type owner in TypeReferenceScanner.OwnersOf(Library))
        {
            foreach (Type used in TypeReferenceScanner.ReferencesOf(owner))
            {
                seen.Add((LayerOf(owner)!, LayerOf(used)!));
            }
        }

        string[] stale = Temporary.Where(t => !seen.Contains((t.From, t.To))).Select(t => $"{t.From} -> {t.To}").ToArray();
        Assert.True(stale.Length == 0, "No longer used, delete from Temporary: " + string.Join(", ", stale));
    }

    [Fact]
    public void LayerOf_EveryNamespace_HasALayer()
    {
        string[] unmapped = TypeReferenceScanner.OwnersOf(Library)
            .Select(t => t.Namespace!)
            .Distinct()
            .Where(ns => LayerOf(ns) is null)
            .ToArray();
        Assert.True(unmapped.Length == 0, "Namespaces with no layer: " + string.Join(", ", unmapped));
    }

    [Fact]
    public void Allowed_Closure_HasNoCycle()
    {
        foreach ((string layer, HashSet<string> reached) in Closure(Allowed))
        {
            Assert.False(reached.Contains(layer), $"layer {layer} reaches itself");
        }

        foreach ((string layer, HashSet<string> reached) in Closure(LowLayers))
        {
            Assert.False(reached.Contains(layer), $"namespace {layer} reaches itself");
        }
    }

    [Fact]
    public void ReferencesOf_SocketFacade_FindsItsSocketCore()
    {
        // A known edge of the library: the public Socket wraps a Sockets.SocketCore.
        Assert.Contains(typeof(Managed.Zmq.Sockets.SocketCore), TypeReferenceScanner.ReferencesOf(typeof(Socket)));
    }

    [Fact]
    public void ReferencesOf_UseOnlyInAMethodBody_IsFound()
    {
        Assert.Contains(typeof(ScannerTarget), TypeReferenceScanner.ReferencesOf(typeof(UsesTargetInBody)));
    }

    [Fact]
    public void ReferencesOf_UseOnlyInALambda_CountsForTheDeclaringType()
    {
        Assert.Contains(typeof(ScannerTarget), TypeReferenceScanner.ReferencesOf(typeof(UsesTargetInLambda)));
    }

    [Fact]
    public void ReferencesOf_UseOnlyInAnAsyncMethod_CountsForTheDeclaringType()
    {
        Assert.Contains(typeof(ScannerTarget), TypeReferenceScanner.ReferencesOf(typeof(UsesTargetInAsyncMethod)));
    }

    [Fact]
    public void ReferencesOf_UseOnlyAsAGenericArgument_IsFound()
    {
        Assert.Contains(typeof(ScannerTarget), TypeReferenceScanner.ReferencesOf(typeof(UsesTargetAsGenericArgument)));
    }

    [Fact]
    public void ReferencesOf_NoUse_FindsNothing()
    {
        Assert.DoesNotContain(typeof(ScannerTarget), TypeReferenceScanner.ReferencesOf(typeof(UsesNothing)));
    }

    private static Dictionary<string, HashSet<string>> Closure(Dictionary<string, string[]> edges)
    {
        var result = new Dictionary<string, HashSet<string>>();
        foreach (string start in edges.Keys)
        {
            var reached = new HashSet<string>();
            var pending = new Stack<string>(edges[start]);
            while (pending.Count > 0)
            {
                string next = pending.Pop();
                if (reached.Add(next))
                {
                    foreach (string further in edges[next])
                    {
                        pending.Push(further);
                    }
                }
            }

            result[start] = reached;
        }

        return result;
    }
}

/// <summary>The type the scanner's own tests look for.</summary>
internal sealed class ScannerTarget
{
    public static int Count { get; set; }

    public static Task<int> GetAsync() => Task.FromResult(Count);
}

/// <summary>Names <see cref="ScannerTarget"/> only inside a method body.</summary>
internal static class UsesTargetInBody
{
    public static int Read() => ScannerTarget.Count;
}

/// <summary>Names <see cref="ScannerTarget"/> only inside a lambda (a compiler-generated nested type).</summary>
internal static class UsesTargetInLambda
{
    public static Func<object> Make(int seed) => () => new ScannerTarget().GetHashCode() + seed;
}

/// <summary>Names <see cref="ScannerTarget"/> only inside an async method (a compiler-generated state machine).</summary>
internal static class UsesTargetInAsyncMethod
{
    public static async Task<int> RunAsync()
    {
        await Task.Yield();
        return await ScannerTarget.GetAsync();
    }
}

/// <summary>Names <see cref="ScannerTarget"/> only as a generic argument in a method body.</summary>
internal static class UsesTargetAsGenericArgument
{
    public static int Count() => new List<ScannerTarget>().Count;
}

/// <summary>Names nothing of ours.</summary>
internal static class UsesNothing
{
    public static int Count() => new List<string>().Count;
}
