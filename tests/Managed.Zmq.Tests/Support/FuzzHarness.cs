using System.Diagnostics;
using Managed.Zmq.Security;
using Managed.Zmq.Tests.Support;
using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Support;

/// <summary>What a fuzz run found.</summary>
public sealed class FuzzReport
{
    public long Inputs { get; internal set; }

    public TimeSpan Elapsed { get; internal set; }

    /// <summary>Highest managed heap size sampled during the run.</summary>
    public long PeakManagedBytes { get; internal set; }

    /// <summary>Longest time one input took.</summary>
    public TimeSpan SlowestInput { get; internal set; }

    /// <summary>One line per distinct problem: target, what happened, the input in hex.</summary>
    public List<string> Findings { get; } = [];

    public double InputsPerSecond => Inputs / Math.Max(Elapsed.TotalSeconds, 1e-9);
}

/// <summary>
/// Feeds random and mutated inputs to the pure protocol pieces: greeting classification and
/// parsing, frame headers, the command codec, metadata, READY, PING, and every mechanism's
/// <c>ProcessCommand</c> (reached by a live, valid conversation up to the mutated command) plus
/// CURVE's <c>Decode</c>. The oracle is: nothing throws, no input takes long, the heap stays bounded.
/// </summary>
/// <remarks>
/// Public so that the console fuzzer (benchmarks/Managed.Zmq.Fuzz) can drive it; the test assembly
/// sees the library's internals, the fuzzer sees only this class.
/// </remarks>
public sealed class FuzzHarness
{
    /// <summary>
    /// What the console fuzzer passes as its slow-input limit: an input slower than this is reported
    /// (a parser must be linear in its input). Unit tests pass none, since a wall-clock limit in a
    /// test fails on a loaded machine rather than on a slow parser.
    /// </summary>
    public const int SlowInputMilliseconds = 1000;

    private readonly int? _slowInputMilliseconds;

    private const int MaxFindings = 50;

    private static readonly ulong[] s_interesting64 =
    [
        0, 1, 0x7F, 0x80, 0xFF, 0x100, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF,
        0x100000000, 0x4000000000000000, 0x7FFFFFFFFFFFFFFF, 0x8000000000000000, ulong.MaxValue,
    ];

    private readonly Random _random;
    private readonly List<byte[]> _frameSeeds = [];
    private readonly List<byte[]> _greetingSeeds = [];
    private readonly HashSet<string> _findingKeys = [];
    private readonly FuzzReport _report = new();
    private readonly byte[] _serverPublic;
    private readonly byte[] _serverSecret;
    private readonly byte[] _clientPublic;
    private readonly byte[] _clientSecret;
    private readonly byte[] _scratch = new byte[1 << 16];

    /// <summary>A CURVE pair that finished its handshake, reused for MESSAGE decoding.</summary>
    private (IMechanism Client, IMechanism Server)? _curvePair;
    private int _curvePairUses;

    public FuzzHarness(int seed, int? slowInputMilliseconds = null)
    {
        _random = new Random(seed);
        _slowInputMilliseconds = slowInputMilliseconds;
        (_serverPublic, _serverSecret) = NewKeyPair();
        (_clientPublic, _clientSecret) = NewKeyPair();
        BuildSeeds();
    }

    /// <summary>
    /// Runs <paramref name="iterations"/> inputs; <paramref name="progress"/> gets a line now and then;
    /// an input slower than <paramref name="slowInputMilliseconds"/>, when given, is a finding.
    /// </summary>
    public static FuzzReport Run(long iterations, int seed, Action<string>? progress = null, int? slowInputMilliseconds = null) =>
        new FuzzHarness(seed, slowInputMilliseconds).RunCore(iterations, progress);

    private FuzzReport RunCore(long iterations, Action<string>? progress)
    {
        var clock = Stopwatch.StartNew();
        var inputClock = new Stopwatch();
        for (long i = 0; i < iterations; i++)
        {
            inputClock.Restart();
            int target = _random.Next(100);
            byte[] input = target switch
            {
                < 15 => NextGreetingInput(),
                _ => NextFrameInput(),
            };

            string name = target switch
            {
                < 15 => "greeting",
                < 35 => "frame",
                < 55 => "command",
                < 70 => "metadata",
                < 99 => "mechanism",
                _ => "curve-message",
            };

            try
            {
                switch (name)
                {
                    case "greeting":
                        FuzzGreeting(input);
                        break;
                    case "frame":
                        FuzzFrame(input);
                        break;
                    case "command":
                        FuzzCommand(input);
                        break;
                    case "metadata":
                        FuzzMetadata(input);
                        break;
                    case "mechanism":
                        FuzzMechanismStep();
                        break;
                    default:
                        FuzzCurveMessage();
                        break;
                }
            }
            catch (Exception ex)
            {
                Report(name, $"{ex.GetType().Name}: {ex.Message} at {FirstFrame(ex)}", input);
            }

            if (inputClock.ElapsedMilliseconds > _report.SlowestInput.TotalMilliseconds)
            {
                _report.SlowestInput = inputClock.Elapsed;
                if (inputClock.ElapsedMilliseconds > _slowInputMilliseconds)
                {
                    Report(name, $"slow input: {inputClock.ElapsedMilliseconds} ms", input);
                }
            }

            if (i % 4096 == 0)
            {
                _report.PeakManagedBytes = Math.Max(_report.PeakManagedBytes, GC.GetTotalMemory(false));
            }

            // Not inside the sampling above: there both conditions held together only at multiples of their least
            // common multiple, minutes apart, and the fuzz tool's watchdog takes a minute without a line for a hang.
            if (progress is not null && i % 100_000 == 0 && i > 0)
            {
                progress($"{i:N0} inputs, {i / clock.Elapsed.TotalSeconds:N0}/s, {_report.Findings.Count} findings, heap {GC.GetTotalMemory(false) >> 20} MiB");
            }
        }

        _report.Inputs = iterations;
        _report.Elapsed = clock.Elapsed;
        _report.PeakManagedBytes = Math.Max(_report.PeakManagedBytes, GC.GetTotalMemory(false));
        DisposeCurvePair();
        return _report;
    }

    // ------------------------------------------------------------------ targets

    private static void FuzzGreeting(byte[] input)
    {
        for (int length = 0; length <= input.Length; length += 1 + (length / 8))
        {
            var prefix = input.AsSpan(0, length);
            var kind = ZmtpGreeting.Classify(prefix);
            var status = ZmtpGreeting.TryParse(prefix, out var greeting);
            if (status == ZmtpStatus.Done && (length < ZmtpGreeting.Length || kind != ZmtpGreetingKind.Zmtp3))
            {
                throw new InvalidOperationException($"TryParse accepted {length} octets classified {kind}.");
            }

            _ = greeting.Mechanism;
        }
    }

    private static void FuzzFrame(byte[] input)
    {
        var status = ZmtpFrame.TryReadHeader(input, out var header);
        if (status == ZmtpStatus.Done && (header.BodyLength < 0 || header.HeaderLength is not (2 or 9) || header.HeaderLength > input.Length))
        {
            throw new InvalidOperationException($"Header {header.HeaderLength}/{header.BodyLength} from {input.Length} octets.");
        }

        var frameStatus = ZmtpFrame.TryReadFrame(input, out _, out var body);
        if (frameStatus == ZmtpStatus.Done && body.Length != header.BodyLength)
        {
            throw new InvalidOperationException("TryReadFrame and TryReadHeader disagree.");
        }

        if (frameStatus == ZmtpStatus.Done)
        {
            FuzzCommand(body.ToArray());
        }
    }

    private static void FuzzCommand(byte[] body)
    {
        if (!ZmtpCommandCodec.TryParse(body, out var command))
        {
            return;
        }

        if (command.Name.Length + command.Data.Length + 1 != body.Length)
        {
            throw new InvalidOperationException("Command name and data do not add up to the body.");
        }

        _ = ZmtpReady.TryParse(command.Data, out _);
        if (ZmtpHeartbeat.TryParsePing(command.Data, out _, out var context) && context.Length > command.Data.Length)
        {
            throw new InvalidOperationException("PING context longer than its data.");
        }

        FuzzMetadata(command.Data.ToArray());
    }

    private static void FuzzMetadata(byte[] block)
    {
        var reader = new ZmtpMetadataReader(block);
        int properties = 0;
        int consumed = 0;
        while (reader.TryReadNext(out var name, out var value))
        {
            consumed += 1 + name.Length + 4 + value.Length;
            if (++properties > block.Length || consumed > block.Length)
            {
                throw new InvalidOperationException("The metadata reader does not advance within its block.");
            }
        }

        _ = ZmtpReady.TryParse(block, out _);
    }

    /// <summary>
    /// A live conversation between a client and a server of one mechanism, valid up to one
    /// command, which is mutated before its receiver processes it; then the conversation goes on.
    /// </summary>
    private void FuzzMechanismStep()
    {
        // CURVE conversations cost several key agreements each: one in twenty.
        int kind = _random.Next(20) == 0 ? 3 : new[] { 0, 1, 2, 4 }[_random.Next(4)];
        var (client, server) = NewPair(kind);
        try
        {
            int mutateAt = _random.Next(4);
            Converse(client, server, mutateAt, Mutate);
        }
        finally
        {
            client.Dispose();
            server.Dispose();
        }
    }

    private void FuzzCurveMessage()
    {
        if (_curvePair is null || _curvePairUses++ > 2000)
        {
            DisposeCurvePair();
            var (client, server) = NewPair(3);
            Converse(client, server, -1, null);
            if (client.Status != MechanismStatus.Ready || server.Status != MechanismStatus.Ready)
            {
                throw new InvalidOperationException($"A clean CURVE handshake ended {client.Status}/{server.Status}.");
            }

            _curvePair = (client, server);
            _curvePairUses = 0;
        }

        var (sender, receiver) = _random.Next(2) == 0 ? (_curvePair.Value.Client, _curvePair.Value.Server) : (_curvePair.Value.Server, _curvePair.Value.Client);
        byte[] plain = ZmtpBytes.Frame(new byte[] { 0, ZmtpBytes.FlagMore, ZmtpBytes.FlagCommand }[_random.Next(3)], RandomBytes(_random.Next(64)));
        int encoded = sender.Encode(plain, _scratch);
        if (encoded < 0)
        {
            throw new InvalidOperationException("Encode wanted more than 64 KiB for a small frame.");
        }

        if (ZmtpFrame.TryReadFrame(_scratch.AsSpan(0, encoded), out _, out var body) != ZmtpStatus.Done)
        {
            throw new InvalidOperationException("Encode wrote a frame that does not parse.");
        }

        byte[] message = _random.Next(2) == 0 ? body.ToArray() : Mutate(body.ToArray());
        var destination = new byte[message.Length + 64];
        int decoded = receiver.Decode(message, destination);
        if (decoded > destination.Length || decoded < -2)
        {
            throw new InvalidOperationException($"Decode returned {decoded}.");
        }

        if (decoded < 0 || receiver.Status != MechanismStatus.Ready)
        {
            // A rejected MESSAGE ends the connection: start a fresh pair next time.
            DisposeCurvePair();
        }
    }

    private void Converse(IMechanism client, IMechanism server, int mutateAt, Func<byte[], byte[]>? mutate)
    {
        int delivered = 0;
        for (int round = 0; round < 16; round++)
        {
            bool progress = Deliver(client, server, ref delivered, mutateAt, mutate) | Deliver(server, client, ref delivered, mutateAt, mutate);
            if (!progress)
            {
                return;
            }
        }
    }

    private bool Deliver(IMechanism from, IMechanism to, ref int delivered, int mutateAt, Func<byte[], byte[]>? mutate)
    {
        if (from.Status == MechanismStatus.WaitingForZap && from.TakeZapRequest() is not null)
        {
            from.ProcessZapReply([[], "1.0"u8.ToArray(), "1"u8.ToArray(), "200"u8.ToArray(), "OK"u8.ToArray(), [], []]);
        }

        bool progress = false;
        while (true)
        {
            int length = from.WriteNextCommand(_scratch);
            if (length <= 0 || to.Status == MechanismStatus.Error)
            {
                return progress;
            }

            progress = true;
            if (ZmtpFrame.TryReadFrame(_scratch.AsSpan(0, length), out _, out var bodySpan) != ZmtpStatus.Done)
            {
                throw new InvalidOperationException("A mechanism wrote a command frame that does not parse.");
            }

            byte[] body = bodySpan.ToArray();
            if (delivered++ == mutateAt && mutate is not null)
            {
                body = mutate(body);
            }

            to.ProcessCommand(body);
        }
    }

    // ------------------------------------------------------------------ mechanisms

    private (IMechanism Client, IMechanism Server) NewPair(int kind)
    {
        MechanismSettings Settings(ZmtpMechanism mechanism, bool asServer, SocketType type) => new()
        {
            SocketType = type,
            Mechanism = mechanism,
            AsServer = asServer,
            PeerAddress = "127.0.0.1",
            RoutingId = _random.Next(2) == 0 ? [] : RandomBytes(1 + _random.Next(255)),
            PlainUsername = "admin"u8.ToArray(),
            PlainPassword = "password"u8.ToArray(),
            CurvePublicKey = asServer ? _serverPublic : _clientPublic,
            CurveSecretKey = asServer ? _serverSecret : _clientSecret,
            CurveServerKey = _serverPublic,
            IsZapHandlerBound = kind == 4 ? static () => true : static () => false,
        };

        var (mechanism, clientType, serverType) = kind switch
        {
            0 => (ZmtpMechanism.Null, SocketType.Dealer, SocketType.Router),
            1 => (ZmtpMechanism.Null, SocketType.Req, SocketType.Rep),
            2 => (ZmtpMechanism.Plain, SocketType.Dealer, SocketType.Router),
            3 => (ZmtpMechanism.Curve, SocketType.Dealer, SocketType.Router),
            _ => (ZmtpMechanism.Plain, SocketType.Push, SocketType.Pull),
        };

        return (MechanismFactory.Create(Settings(mechanism, false, clientType)), MechanismFactory.Create(Settings(mechanism, true, serverType)));
    }

    private void DisposeCurvePair()
    {
        if (_curvePair is { } pair)
        {
            pair.Client.Dispose();
            pair.Server.Dispose();
            _curvePair = null;
        }
    }

    private static (byte[] Public, byte[] Secret) NewKeyPair()
    {
        var (publicKey, secretKey) = Curve.GenerateKeypair();
        return (Z85.Decode(publicKey), Z85.Decode(secretKey));
    }

    // ------------------------------------------------------------------ inputs

    private void BuildSeeds()
    {
        foreach (string mechanism in new[] { "NULL", "PLAIN", "CURVE" })
        {
            _greetingSeeds.Add(ZmtpBytes.Greeting(minor: 1, mechanism: mechanism));
            _greetingSeeds.Add(ZmtpBytes.Greeting(minor: 0, mechanism: mechanism, asServer: true));
        }

        _frameSeeds.Add(ZmtpBytes.Ready("DEALER", ZmtpBytes.Property("Identity", "id"u8), ZmtpBytes.Property("X-Hello", "World"u8)));
        _frameSeeds.Add(ZmtpBytes.Ready("SUB"));
        _frameSeeds.Add(ZmtpBytes.Ping(10, "ctx"u8));
        _frameSeeds.Add(ZmtpBytes.Command("PONG", "ctx"u8));
        _frameSeeds.Add(ZmtpBytes.Command("SUBSCRIBE", "topic"u8));
        _frameSeeds.Add(ZmtpBytes.Command("CANCEL", "topic"u8));
        _frameSeeds.Add(ZmtpBytes.Command("ERROR", "\u0003400"u8));
        _frameSeeds.Add(ZmtpBytes.Message("hello", more: true));
        _frameSeeds.Add(ZmtpBytes.Frame(0, new byte[300]));

        // Every command of a clean handshake of each mechanism, as the library itself writes them
        // (HELLO, WELCOME, INITIATE, READY of PLAIN and CURVE), and a CURVE MESSAGE.
        Func<byte[], byte[]> keep = body =>
        {
            _frameSeeds.Add(ZmtpBytes.Frame(ZmtpBytes.FlagCommand, body));
            return body;
        };
        for (int kind = 0; kind < 5; kind++)
        {
            for (int at = 0; at < 6; at++)
            {
                // Converse hands exactly one command (the at-th) to the hook: here it is recorded.
                var (client, server) = NewPair(kind);
                Converse(client, server, at, keep);
                if (at == 0 && client.Status == MechanismStatus.Ready && client.EncryptsTraffic)
                {
                    int length = client.Encode(ZmtpBytes.Message("payload"), _scratch);
                    _frameSeeds.Add(_scratch[..length]);
                }

                client.Dispose();
                server.Dispose();
            }
        }
    }

    private byte[] NextGreetingInput()
    {
        var seed = _greetingSeeds[_random.Next(_greetingSeeds.Count)];
        return _random.Next(10) == 0 ? RandomBytes(_random.Next(80)) : Mutate(seed);
    }

    private byte[] NextFrameInput()
    {
        if (_random.Next(10) == 0)
        {
            return RandomBytes(_random.Next(300));
        }

        var seed = _frameSeeds[_random.Next(_frameSeeds.Count)];
        if (_random.Next(2) == 0)
        {
            // Half the time the frame body alone: what the command codec and mechanisms see.
            if (ZmtpFrame.TryReadFrame(seed, out _, out var body) == ZmtpStatus.Done)
            {
                seed = body.ToArray();
            }
        }

        return Mutate(seed);
    }

    /// <summary>1 to 4 random edits: bit flips, interesting values, inserts, deletes, truncation, splices.</summary>
    public byte[] Mutate(byte[] seed)
    {
        var data = new List<byte>(seed);
        int edits = 1 + _random.Next(4);
        for (int e = 0; e < edits; e++)
        {
            int at = data.Count == 0 ? 0 : _random.Next(data.Count);
            switch (_random.Next(9))
            {
                case 0 when data.Count > 0:
                    data[at] ^= (byte)(1 << _random.Next(8));
                    break;
                case 1 when data.Count > 0:
                    data[at] = (byte)_random.Next(256);
                    break;
                case 2 when data.Count > 0:
                    data[at] = (byte)s_interesting64[_random.Next(5)];
                    break;
                case 3:
                    data.InsertRange(at, RandomBytes(1 + _random.Next(8)));
                    break;
                case 4 when data.Count > 0:
                    data.RemoveRange(at, Math.Min(data.Count - at, 1 + _random.Next(16)));
                    break;
                case 5:
                    data.RemoveRange(at, data.Count - at);
                    break;
                case 6 when data.Count > 0:
                    int length = Math.Min(data.Count - at, 1 + _random.Next(32));
                    data.InsertRange(_random.Next(data.Count), data.GetRange(at, length));
                    break;
                case 7:
                    byte[] value = new byte[_random.Next(2) == 0 ? 4 : 8];
                    ulong interesting = s_interesting64[_random.Next(s_interesting64.Length)];
                    for (int b = 0; b < value.Length; b++)
                    {
                        value[value.Length - 1 - b] = (byte)(interesting >> (8 * b));
                    }

                    for (int b = 0; b < value.Length && at + b < data.Count; b++)
                    {
                        data[at + b] = value[b];
                    }

                    break;
                default:
                    var other = _frameSeeds[_random.Next(_frameSeeds.Count)];
                    int from = _random.Next(other.Length);
                    data.InsertRange(at, other.AsSpan(from, Math.Min(other.Length - from, 1 + _random.Next(64))).ToArray());
                    break;
            }
        }

        return [.. data];
    }

    private byte[] RandomBytes(int count)
    {
        var bytes = new byte[count];
        _random.NextBytes(bytes);
        return bytes;
    }

    private void Report(string target, string what, byte[] input)
    {
        string key = target + "|" + what[..Math.Min(what.Length, 160)];
        if (_findingKeys.Count < MaxFindings && _findingKeys.Add(key))
        {
            _report.Findings.Add($"[{target}] {what} input={Convert.ToHexString(input.AsSpan(0, Math.Min(input.Length, 256)))}");
        }
    }

    private static string FirstFrame(Exception ex)
    {
        var frame = new StackTrace(ex, false).GetFrames().FirstOrDefault(f => f.GetMethod()?.DeclaringType?.Namespace?.StartsWith("Managed.Zmq", StringComparison.Ordinal) == true);
        var method = frame?.GetMethod();
        return method is null ? "?" : $"{method.DeclaringType?.Name}.{method.Name}";
    }
}
