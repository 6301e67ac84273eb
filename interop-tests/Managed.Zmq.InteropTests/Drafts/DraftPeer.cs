#if !INTEROP_WITHOUT_CORE
using System.Collections.Concurrent;
using System.Diagnostics;
using Managed.Zmq.InteropTests.Infrastructure;

namespace Managed.Zmq.InteropTests.Drafts;

/// <summary>
/// The libzmq SERVER or CLIENT peer (draft-peer.c) in a process of its own, compiled once per run with gcc
/// against the draft-enabled libzmq that interop-tests/native/build-draft-libzmq.sh builds (Debian's libzmq5
/// has no draft API, so neither pyzmq nor the in-process binding can play these types). The build is found
/// through MANAGED_ZMQ_DRAFT_LIBZMQ (the .so path) or else the newest build under the script's default cache;
/// when neither exists the tests FAIL with the command that builds it: interop tests are never skipped.
/// </summary>
internal sealed class DraftPeer : IDisposable
{
    public const string EnvironmentVariable = "MANAGED_ZMQ_DRAFT_LIBZMQ";
    public const string DefaultCacheRoot = "/var/cache/managed-zmq/libzmq-draft";

    private static readonly Lazy<string> s_executable = new(Build);

    private readonly Process _process;
    private readonly BlockingCollection<string> _lines = [];
    private readonly List<string> _seen = [];
    private readonly StringWriter _errors = new();

    private DraftPeer(Process process)
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

    /// <summary>Starts the peer: <paramref name="mode"/> "server" (binds) or "client" (connects), for <paramref name="count"/> exchanges.</summary>
    public static DraftPeer Start(string mode, string endpoint, int count)
    {
        var info = new ProcessStartInfo(s_executable.Value)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        info.ArgumentList.Add(mode);
        info.ArgumentList.Add(endpoint);
        info.ArgumentList.Add(count.ToString(System.Globalization.CultureInfo.InvariantCulture));
        return new DraftPeer(Process.Start(info) ?? throw new InvalidOperationException("draft-peer did not start"));
    }

    /// <summary>The rest of the next stdout line that starts with <paramref name="prefix"/>; fails at the I/O deadline or on an "error" line.</summary>
    public string ReadLine(string prefix)
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            int remaining = Math.Max(0, (int)Timeouts.Io.TotalMilliseconds - (int)clock.ElapsedMilliseconds);
            if (!_lines.TryTake(out string? line, remaining))
            {
                Assert.Fail($"draft-peer never printed '{prefix}'; printed: {string.Join(" | ", _seen)}; stderr: {Errors}");
            }

            _seen.Add(line!);
            Assert.False(line!.StartsWith("error ", StringComparison.Ordinal), $"draft-peer failed: {line}");
            if (line.StartsWith(prefix, StringComparison.Ordinal))
            {
                return line[prefix.Length..];
            }
        }
    }

    /// <summary>Waits for the peer's "done" and a zero exit code.</summary>
    public void AssertExitsCleanly()
    {
        ReadLine("done");
        Assert.True(_process.WaitForExit((int)Timeouts.Io.TotalMilliseconds), "draft-peer did not exit");
        Assert.True(_process.ExitCode == 0, $"draft-peer exited with {_process.ExitCode}; stderr: {Errors}");
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
        string? library = Environment.GetEnvironmentVariable(EnvironmentVariable);
        if (string.IsNullOrEmpty(library) && Directory.Exists(DefaultCacheRoot))
        {
            library = Directory.GetDirectories(DefaultCacheRoot)
                .Select(dir => Path.Combine(dir, "lib", "libzmq.so.5"))
                .Where(File.Exists)
                .OrderByDescending(File.GetLastWriteTimeUtc)
                .FirstOrDefault();
        }

        if (string.IsNullOrEmpty(library) || !File.Exists(library))
        {
            Assert.Fail($"The draft-enabled libzmq was not found ({EnvironmentVariable}={Environment.GetEnvironmentVariable(EnvironmentVariable) ?? "unset"}, " +
                $"nothing under {DefaultCacheRoot}). Build it with: bash interop-tests/native/build-draft-libzmq.sh");
        }

        string prefix = Path.GetDirectoryName(Path.GetDirectoryName(library))!;
        Assert.True(File.Exists(Path.Combine(prefix, "include", "zmq.h")), $"no include/zmq.h beside the draft libzmq {library}");
        return prefix;
    }

    private static string Build()
    {
        string prefix = FindPrefix();
        string source = Path.Combine(AppContext.BaseDirectory, "Drafts", "draft-peer.c");
        string directory = Path.Combine(Path.GetTempPath(), $"managed-zmq-draft-peer-{Environment.ProcessId}");
        Directory.CreateDirectory(directory);
        string executable = Path.Combine(directory, "draft-peer");
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
        Assert.True(gcc.WaitForExit(60_000) && gcc.ExitCode == 0, $"gcc could not build draft-peer: {errors}");
        return executable;
    }
}
#endif
