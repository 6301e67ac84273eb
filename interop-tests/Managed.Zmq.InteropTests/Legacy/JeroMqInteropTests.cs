#if !INTEROP_WITHOUT_CORE
using System.Diagnostics;
using Managed.Zmq.InteropTests.Infrastructure;

namespace Managed.Zmq.InteropTests.Legacy;

/// <summary>
/// A ZMTP 2.0 peer for real: Debian's JeroMQ 0.3.6, a port of libzmq 3.2, which talks to libzmq
/// 4.3 in both directions. A small Java program (OldPeer.java, compiled here with javac) plays REQ or REP,
/// binding or connecting; each test exchanges one request and one reply with our socket.
/// </summary>
public sealed class JeroMqInteropTests
{
    private const string JeroMqJar = "/usr/share/java/jeromq.jar";

    private static readonly Lazy<string> s_classes = new(Compile);

    [Fact]
    public Task JeroMqRepBinds_OurReqConnects_RequestAndReplyCross() => Deadline.Run(() =>
    {
        using var peer = JavaPeer.Start("rep", "bind");
        string endpoint = "tcp://127.0.0.1:" + peer.ReadLine("port ");
        using var context = new Context();
        using var req = Open(context, SocketType.Req);

        req.Connect(endpoint);
        req.Send("hello from us");

        Assert.Equal("echo:hello from us", req.RecvString());
        Assert.Equal("hello from us", peer.ReadLine("got "));
        peer.AssertExitsCleanly();
    });

    [Fact]
    public Task OurRepBinds_JeroMqReqConnects_RequestAndReplyCross() => Deadline.Run(() =>
    {
        using var context = new Context();
        using var rep = Open(context, SocketType.Rep);
        rep.Bind("tcp://127.0.0.1:*");
        using var peer = JavaPeer.Start("req", "connect", rep.GetOptionString(SocketOption.Last_Endpoint));

        Assert.Equal("hello from jeromq", rep.RecvString());
        rep.Send("welcome, old friend");

        Assert.Equal("welcome, old friend", peer.ReadLine("reply "));
        peer.AssertExitsCleanly();
    });

    private static Socket Open(Context context, SocketType type)
    {
        var socket = new Socket(context, type);
        socket.SetOption(SocketOption.Linger, 0);
        socket.SetOption(SocketOption.Rcvtimeo, (int)Timeouts.Io.TotalMilliseconds);
        socket.SetOption(SocketOption.Sndtimeo, (int)Timeouts.Io.TotalMilliseconds);
        return socket;
    }

    /// <summary>Compiles OldPeer.java (copied next to the test assembly) once per run; returns the class directory.</summary>
    private static string Compile()
    {
        Assert.True(File.Exists(JeroMqJar), $"{JeroMqJar} is missing: install Debian's libjeromq-java (.ci/run does)");
        string source = Path.Combine(AppContext.BaseDirectory, "Legacy", "OldPeer.java");
        string output = Path.Combine(Path.GetTempPath(), $"mzq-jeromq-{Environment.ProcessId}");
        Directory.CreateDirectory(output);
        using var javac = Process.Start(new ProcessStartInfo("javac", ["-cp", JeroMqJar, "-d", output, source])
        {
            RedirectStandardError = true,
            RedirectStandardOutput = true,
        }) ?? throw new InvalidOperationException("javac did not start");
        string errors = javac.StandardError.ReadToEnd();
        Assert.True(javac.WaitForExit(Timeouts.Scenario), "javac did not finish");
        Assert.True(javac.ExitCode == 0, $"javac failed: {errors}");
        return output;
    }

    /// <summary>The Java peer process; killed on Dispose if still running.</summary>
    private sealed class JavaPeer : IDisposable
    {
        private readonly Process _process;

        private JavaPeer(Process process) => _process = process;

        public static JavaPeer Start(params string[] args)
        {
            var info = new ProcessStartInfo("java", ["-cp", $"{JeroMqJar}:{s_classes.Value}", "OldPeer", .. args])
            {
                RedirectStandardOutput = true,
                RedirectStandardError = true,
            };
            return new JavaPeer(Process.Start(info) ?? throw new InvalidOperationException("java did not start"));
        }

        /// <summary>The rest of the next stdout line, which must start with <paramref name="prefix"/>.</summary>
        public string ReadLine(string prefix)
        {
            var line = _process.StandardOutput.ReadLineAsync();
            Assert.True(line.Wait(Timeouts.Io), $"the Java peer printed nothing (expected \"{prefix}…\")");
            string text = line.Result ?? throw new InvalidOperationException("the Java peer ended: " + _process.StandardError.ReadToEnd());
            Assert.StartsWith(prefix, text, StringComparison.Ordinal);
            return text[prefix.Length..];
        }

        public void AssertExitsCleanly()
        {
            Assert.True(_process.WaitForExit(Timeouts.Io), "the Java peer did not exit");
            Assert.Equal(0, _process.ExitCode);
        }

        public void Dispose()
        {
            if (!_process.HasExited)
            {
                _process.Kill();
                _process.WaitForExit(Timeouts.Io);
            }

            _process.Dispose();
        }
    }
}
#endif
