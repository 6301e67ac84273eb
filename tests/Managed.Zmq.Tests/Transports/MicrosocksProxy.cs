using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace Managed.Zmq.Tests.Transports;

/// <summary>
/// A real SOCKS5 server for the Socks_Proxy tests: Debian's <c>microsocks</c> (RFC 1928, RFC 1929 with
/// <c>-u</c>/<c>-P</c>), listening on an ephemeral loopback port. CI installs it (.ci/run).
/// </summary>
internal sealed class MicrosocksProxy : IDisposable
{
    private const string Executable = "/usr/bin/microsocks";

    /// <summary>Attempts at a free port: another process may take the port between our probe and microsocks' bind.</summary>
    private const int StartAttempts = 5;

    private static readonly TimeSpan s_startDeadline = TimeSpan.FromSeconds(10);

    private readonly Process _process;

    private MicrosocksProxy(Process process, int port)
    {
        _process = process;
        Port = port;
    }

    public int Port { get; }

    /// <summary>Starts microsocks, with username/password authentication when <paramref name="username"/> is given.</summary>
    public static MicrosocksProxy Start(string? username = null, string? password = null)
    {
        Assert.True(File.Exists(Executable), "microsocks is installed by .ci/run (apt-get install microsocks)");
        for (int attempt = 0; ; attempt++)
        {
            int port = FreePort();
            var start = new ProcessStartInfo(Executable) { RedirectStandardOutput = true, RedirectStandardError = true };
            foreach (string argument in new[] { "-i", "127.0.0.1", "-p", port.ToString(System.Globalization.CultureInfo.InvariantCulture) })
            {
                start.ArgumentList.Add(argument);
            }

            if (username is not null)
            {
                start.ArgumentList.Add("-u");
                start.ArgumentList.Add(username);
                start.ArgumentList.Add("-P");
                start.ArgumentList.Add(password ?? string.Empty);
            }

            var process = Process.Start(start)!;
            if (WaitUntilListening(process, port))
            {
                return new MicrosocksProxy(process, port);
            }

            process.Dispose();
            Assert.True(attempt + 1 < StartAttempts, "microsocks did not start listening");
        }
    }

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            _process.Kill();
            _process.WaitForExit(s_startDeadline);
        }

        _process.Dispose();
    }

    /// <summary>An ephemeral port nothing listens on right now.</summary>
    public static int FreePort()
    {
        using var probe = new System.Net.Sockets.Socket(AddressFamily.InterNetwork, System.Net.Sockets.SocketType.Stream, ProtocolType.Tcp);
        probe.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        return ((IPEndPoint)probe.LocalEndPoint!).Port;
    }

    /// <summary>
    /// Readiness: microsocks prints nothing when it listens, so try to connect until a connection is accepted, the
    /// process exits (the port was taken), or the deadline passes.
    /// </summary>
    private static bool WaitUntilListening(Process process, int port)
    {
        var deadline = Stopwatch.StartNew();
        while (deadline.Elapsed < s_startDeadline)
        {
            if (process.WaitForExit(0))
            {
                return false;
            }

            using var client = new TcpClient();
            try
            {
                client.Connect(IPAddress.Loopback, port);
                return true;
            }
            catch (SocketException)
            {
                // Not listening yet: the exit check above and the next attempt decide.
                process.WaitForExit(TimeSpan.FromMilliseconds(20));
            }
        }

        process.Kill();
        return false;
    }
}
