#if !INTEROP_WITHOUT_CORE
using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using Managed.Zmq.InteropTests.Infrastructure;

namespace Managed.Zmq.InteropTests.Drafts;

/// <summary>
/// The libzmq RADIO or DISH peer (radio-dish-peer.c) in a process of its own, compiled once per run with gcc against
/// the draft-enabled libzmq, found as <see cref="DraftPeer"/> finds it (MANAGED_ZMQ_DRAFT_LIBZMQ, else the newest
/// build under its default cache); when there is none the tests FAIL with the command that builds it: interop
/// tests are never skipped.
/// </summary>
internal sealed class RadioDishPeer : IDisposable
{
    private static readonly Lazy<string> s_executable = new(Build);

    private readonly Process _process;
    private readonly BlockingCollection<string> _lines = [];
    private readonly List<string> _seen = [];
    private readonly StringWriter _errors = new();

    private RadioDishPeer(Process process)
    {
        _process = process;
        _process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is not null)
            {
                _lines.Add(e.Data);
            }
        };
        _process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is not null)
            {
                lock (_errors)
                {
                    _errors.WriteLine(e.Data);
                }
            }
        };
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
    }

    /// <summary>
    /// Starts the peer: <paramref name="role"/> "radio" or "dish", <paramref name="bind"/> or connect to
    /// <paramref name="endpoint"/>, for <paramref name="count"/> messages of <paramref name="group"/>.
    /// </summary>
    public static RadioDishPeer Start(string role, bool bind, string endpoint, string group, int count)
    {
        var info = new ProcessStartInfo(s_executable.Value)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        info.ArgumentList.Add(role);
        info.ArgumentList.Add(bind ? "bind" : "connect");
        info.ArgumentList.Add(endpoint);
        info.ArgumentList.Add(group);
        info.ArgumentList.Add(count.ToString(CultureInfo.InvariantCulture));
        return new RadioDishPeer(Process.Start(info) ?? throw new InvalidOperationException("radio-dish-peer did not start"));
    }

    /// <summary>The rest of the next stdout line that starts with <paramref name="prefix"/>; fails at the I/O deadline or on an "error" line.</summary>
    public string ReadLine(string prefix) =>
        TryReadLine(prefix, (int)Timeouts.Io.TotalMilliseconds)
        ?? throw new Xunit.Sdk.XunitException($"radio-dish-peer never printed '{prefix}'; printed: {string.Join(" | ", _seen)}; stderr: {Errors}");

    /// <summary>As <see cref="ReadLine"/>, but null when no such line came within <paramref name="timeoutMilliseconds"/>.</summary>
    public string? TryReadLine(string prefix, int timeoutMilliseconds)
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            int remaining = Math.Max(0, timeoutMilliseconds - (int)clock.ElapsedMilliseconds);
            if (!_lines.TryTake(out string? line, remaining))
            {
                return null;
            }

            _seen.Add(line!);
            Assert.False(line!.StartsWith("error ", StringComparison.Ordinal), $"radio-dish-peer failed: {line}; stderr: {Errors}");
            if (line.StartsWith(prefix, StringComparison.Ordinal))
            {
                return line[prefix.Length..];
            }
        }
    }

    /// <summary>Tells a RADIO peer to stop probing and send its messages.</summary>
    public void Go()
    {
        _process.StandardInput.WriteLine("go");
        _process.StandardInput.Flush();
    }

    /// <summary>Waits for the peer's "done" and a zero exit code.</summary>
    public void AssertExitsCleanly()
    {
        ReadLine("done");
        Assert.True(_process.WaitForExit((int)Timeouts.Io.TotalMilliseconds), "radio-dish-peer did not exit");
        Assert.True(_process.ExitCode == 0, $"radio-dish-peer exited with {_process.ExitCode}; stderr: {Errors}");
    }

    private string Errors
    {
        get
        {
            lock (_errors)
            {
                return _errors.ToString();
            }
        }
    }

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            _process.Kill();
            _process.WaitForExit((int)Timeouts.Io.TotalMilliseconds);
        }

        _process.Dispose();
        _lines.Dispose();
    }

    /// <summary>The draft libzmq's install prefix (lib/ and include/), or a failure naming the build command.</summary>
    private static string FindPrefix()
    {
        string? library = Environment.GetEnvironmentVariable(DraftPeer.EnvironmentVariable);
        if (string.IsNullOrEmpty(library) && Directory.Exists(DraftPeer.DefaultCacheRoot))
        {
            library = Directory.GetDirectories(DraftPeer.DefaultCacheRoot)
                .Select(dir => Path.Combine(dir, "lib", "libzmq.so.5"))
                .Where(File.Exists)
                .OrderByDescending(File.GetLastWriteTimeUtc)
                .FirstOrDefault();
        }

        if (string.IsNullOrEmpty(library) || !File.Exists(library))
        {
            Assert.Fail($"The draft-enabled libzmq was not found ({DraftPeer.EnvironmentVariable}={Environment.GetEnvironmentVariable(DraftPeer.EnvironmentVariable) ?? "unset"}, " +
                $"nothing under {DraftPeer.DefaultCacheRoot}). Build it with: bash interop-tests/native/build-draft-libzmq.sh");
        }

        string prefix = Path.GetDirectoryName(Path.GetDirectoryName(library))!;
        Assert.True(File.Exists(Path.Combine(prefix, "include", "zmq.h")), $"no include/zmq.h beside the draft libzmq {library}");
        return prefix;
    }

    private static string Build()
    {
        string prefix = FindPrefix();
        string source = Path.Combine(AppContext.BaseDirectory, "Drafts", "radio-dish-peer.c");
        string directory = Path.Combine(Path.GetTempPath(), $"managed-zmq-radio-dish-peer-{Environment.ProcessId}");
        Directory.CreateDirectory(directory);
        string executable = Path.Combine(directory, "radio-dish-peer");
        string lib = Path.Combine(prefix, "lib");
        var info = new ProcessStartInfo("gcc")
        {
            RedirectStandardError = true,
            RedirectStandardOutput = true,
            UseShellExecute = false,
        };

        // The rpath makes the peer load the draft build, never Debian's libzmq5 of the same SONAME.
        foreach (string argument in new[] { "-O1", "-DZMQ_BUILD_DRAFT_API", "-I", Path.Combine(prefix, "include"), "-o", executable, source, "-L", lib, "-Wl,-rpath," + lib, "-lzmq" })
        {
            info.ArgumentList.Add(argument);
        }

        using var gcc = Process.Start(info) ?? throw new InvalidOperationException("gcc did not start (apt-get install gcc libc6-dev)");
        string errors = gcc.StandardError.ReadToEnd();
        Assert.True(gcc.WaitForExit(60_000) && gcc.ExitCode == 0, $"gcc could not build radio-dish-peer: {errors}");
        return executable;
    }
}
#endif
