using System.Reflection;
using Xunit.Sdk;

namespace Managed.Zmq.Tests.Support;

/// <summary>A transport a test runs over: the value a per-transport theory receives.</summary>
public enum Transport
{
    Tcp,
    Ipc,
    Inproc,

    /// <summary>ZWS 2.0 over loopback TCP; named explicitly, not part of the default set.</summary>
    Ws,

    /// <summary>ZWS 2.0 over TLS over loopback TCP; needs the Wss_* options on every socket (WssSocketContractTests sets them).</summary>
    Wss,
}

/// <summary>
/// Runs a theory once per transport: <c>[Theory, TransportCases]</c> gives every transport (tcp,
/// ipc, inproc), <c>[Theory, TransportCases(Transport.Tcp, Transport.Ipc)]</c> only those. With
/// <see cref="With"/>, every transport is paired with every value: <c>[TransportCases(With = [64, 65536])]</c>
/// passes (transport, value). The test gets its endpoint from <see cref="TestEndpoint"/>.
/// </summary>
/// <remarks>
/// The values are enum members (and the constants in <see cref="With"/>), so xUnit lists one test
/// case per row, under a stable name.
/// </remarks>
[AttributeUsage(AttributeTargets.Method, AllowMultiple = false)]
public sealed class TransportCasesAttribute : DataAttribute
{
    private static readonly Transport[] Every = [Transport.Tcp, Transport.Ipc, Transport.Inproc];

    private readonly Transport[] _transports;

    public TransportCasesAttribute(params Transport[] transports)
    {
        _transports = transports.Length == 0 ? Every : transports;
    }

    /// <summary>Values crossed with every transport: each row is (transport, value).</summary>
    public object[]? With { get; set; }

    /// <inheritdoc/>
    public override IEnumerable<object[]> GetData(MethodInfo testMethod)
    {
        if (With is null)
        {
            return _transports.Select(transport => new object[] { transport });
        }

        return With.SelectMany(value => _transports.Select(transport => new object[] { transport, value }));
    }
}

/// <summary>
/// Endpoints that no other test uses, for every transport: the one place a test gets its bind
/// address, its unique inproc name or its ipc path.
/// </summary>
public static class TestEndpoint
{
    private static int s_counter;

    /// <summary>
    /// An endpoint to bind on <paramref name="transport"/>: <c>tcp://127.0.0.1:*</c> (an ephemeral
    /// port), a fresh ipc path in the temp directory (<see cref="IpcPath"/>) or a fresh inproc name.
    /// Connect to what <c>Last_Endpoint</c> reports after the bind (<see cref="Bind"/> does both).
    /// The wildcard <c>ipc://*</c> has tests of its own (Transports/IpcTransportTests).
    /// </summary>
    public static string For(Transport transport, string what = "test") => transport switch
    {
        Transport.Tcp => "tcp://127.0.0.1:*",
        Transport.Ipc => "ipc://" + IpcPath(what),
        Transport.Inproc => Inproc(what),
        Transport.Ws => "ws://127.0.0.1:*/" + what,
        Transport.Wss => "wss://127.0.0.1:*/" + what,
        _ => throw new ArgumentOutOfRangeException(nameof(transport), transport, null),
    };

    /// <summary>Binds <paramref name="socket"/> to <see cref="For"/> and returns the endpoint to connect to.</summary>
    public static string Bind(Socket socket, Transport transport, string what = "test")
    {
        socket.Bind(For(transport, what));
        return socket.GetOptionString(SocketOption.Last_Endpoint);
    }

    /// <summary>
    /// A concrete endpoint on <paramref name="transport"/> that nothing listens on, for a connect
    /// before any bind: a refused loopback port, a fresh ipc path, a fresh inproc name.
    /// </summary>
    public static string Unbound(Transport transport, string what = "test") => transport switch
    {
        Transport.Tcp => RefusedPort.TcpEndpoint(),
        Transport.Ipc => "ipc://" + IpcPath(what),
        Transport.Inproc => Inproc(what),
        Transport.Ws => "ws://" + RefusedPort.TcpEndpoint()["tcp://".Length..] + "/" + what,
        Transport.Wss => "wss://" + RefusedPort.TcpEndpoint()["tcp://".Length..] + "/" + what,
        _ => throw new ArgumentOutOfRangeException(nameof(transport), transport, null),
    };

    /// <summary>An inproc endpoint no other test uses: <c>inproc://{what}-{process id}-{counter}</c>.</summary>
    public static string Inproc(string what) =>
        $"inproc://{what}-{Environment.ProcessId}-{Interlocked.Increment(ref s_counter)}";

    /// <summary>A path in the temp directory that no other test uses (no <c>ipc://</c> prefix).</summary>
    public static string IpcPath(string what) =>
        Path.Combine(Path.GetTempPath(), $"mzq-{what}-{Environment.ProcessId}-{Interlocked.Increment(ref s_counter)}");
}
