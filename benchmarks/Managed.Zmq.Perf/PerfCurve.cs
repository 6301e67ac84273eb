namespace Managed.Zmq.Perf;

/// <summary>
/// Opt-in CURVE for the libzmq-style modes: <c>PERF_CURVE=1</c> in the environment (the
/// arguments stay libzmq's). The local side (binds) is the CURVE server, the remote side
/// (connects) the client. Fixed key pairs: libzmq's documented test keys in Z85, the same
/// ones benchmarks/native/perf_common.h uses, so either side can talk to the other.
/// <c>PERF_SODIUM=1</c> as well: X25519 through the optional Managed.Zmq.Sodium provider.
/// </summary>
internal static class PerfCurve
{
    public const string ServerPublic = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7";
    public const string ServerSecret = "JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6";
    public const string ClientPublic = "Yne@$w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hID";
    public const string ClientSecret = "D:)Q[IlAW!ahhC2ac:9*A}h:p?([4%wOTJ%JR%cs";

    public static bool Enabled { get; } = IsSet("PERF_CURVE");

    /// <summary>Installs the libsodium X25519 provider when <c>PERF_SODIUM</c> is set; call before any socket.</summary>
    public static void InstallProvider()
    {
        if (IsSet("PERF_SODIUM"))
        {
            Sodium.SodiumCurve.Install();
        }
    }

    private static bool IsSet(string variable) =>
        Environment.GetEnvironmentVariable(variable) is { Length: > 0 } value && value != "0";

    /// <summary>Makes <paramref name="socket"/> the CURVE server when enabled; call before Bind.</summary>
    public static void Server(Socket socket)
    {
        if (!Enabled)
        {
            return;
        }

        socket.SetOption(SocketOption.Curve_Server, 1);
        socket.SetOption(SocketOption.Curve_Secretkey, ServerSecret);
    }

    /// <summary>Makes <paramref name="socket"/> a CURVE client when enabled; call before Connect.</summary>
    public static void Client(Socket socket)
    {
        if (!Enabled)
        {
            return;
        }

        socket.SetOption(SocketOption.Curve_Serverkey, ServerPublic);
        socket.SetOption(SocketOption.Curve_Publickey, ClientPublic);
        socket.SetOption(SocketOption.Curve_Secretkey, ClientSecret);
    }
}
