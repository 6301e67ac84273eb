using System.Collections.Concurrent;
using System.Diagnostics;

namespace Managed.Zmq.InteropTests.Resilience;

/// <summary>
/// A libzmq peer in another process (zmq-peer.c, compiled once per test run with gcc against the
/// system libzmq), so that a test can kill it with SIGKILL mid-stream: no close, no linger, the
/// kernel resets its connections. Its stdout lines are collected for the test to wait on.
/// </summary>
/// <remarks>Needs <c>gcc</c> and <c>libzmq3-dev</c> (zmq.h, libzmq.so); .ci/run installs them.</remarks>
internal sealed class NativePeerProcess : IDisposable
{
    private static readonly Lazy<string> s_executable = new(Build);

    private readonly Process _process;
    private readonly BlockingCollection<string> _lines = [];
    private readonly List<string> _seen = [];

    private NativePeerProcess(Process process)
    {
        _process = process;
        _process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is not null)
            {
                _lines.Add(e.Data);
            }
        };
        _process.BeginOutputReadLine();
    }

    public static NativePeerProcess Start(string mode, string endpoint)
    {
        var info = new ProcessStartInfo(s_executable.Value)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        info.ArgumentList.Add(mode);
        info.ArgumentList.Add(endpoint);
        return new NativePeerProcess(Process.Start(info) ?? throw new InvalidOperationException("zmq-peer did not start"));
    }

    /// <summary>Waits for a stdout line that satisfies <paramref name="match"/>; fails at the deadline.</summary>
    public string WaitForLine(Func<string, bool> match, string what, int timeoutMilliseconds = 10_000)
    {
        if (TryWaitForLine(match, timeoutMilliseconds) is { } line)
        {
            return line;
        }

        Assert.Fail($"zmq-peer never printed {what} within {timeoutMilliseconds} ms; printed: {string.Join(" | ", _seen.TakeLast(10))}");
        return string.Empty;
    }

    /// <summary>The first stdout line that satisfies <paramref name="match"/>, or null at the deadline.</summary>
    public string? TryWaitForLine(Func<string, bool> match, int timeoutMilliseconds)
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            int remaining = Math.Max(0, timeoutMilliseconds - (int)clock.ElapsedMilliseconds);
            if (!_lines.TryTake(out string? line, remaining))
            {
                return null;
            }

            _seen.Add(line);
            if (match(line))
            {
                return line;
            }
        }
    }

    /// <summary>Lines read so far by <see cref="WaitForLine"/>.</summary>
    public IReadOnlyList<string> Seen => _seen;

    /// <summary>SIGKILL, then waits until the process is gone.</summary>
    public void Kill()
    {
        _process.Kill();
        Assert.True(_process.WaitForExit(10_000), "zmq-peer survived SIGKILL");
    }

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            Kill();
        }

        _process.Dispose();
        _lines.Dispose();
    }

    private static string Build()
    {
        string source = Path.Combine(AppContext.BaseDirectory, "Resilience", "zmq-peer.c");
        string directory = Path.Combine(Path.GetTempPath(), $"managed-zmq-peer-{Environment.ProcessId}");
        Directory.CreateDirectory(directory);
        string executable = Path.Combine(directory, "zmq-peer");
        var info = new ProcessStartInfo("gcc")
        {
            RedirectStandardError = true,
            RedirectStandardOutput = true,
            UseShellExecute = false,
        };
        foreach (string argument in new[] { "-O1", "-o", executable, source, "-lzmq" })
        {
            info.ArgumentList.Add(argument);
        }

        Process gcc;
        try
        {
            gcc = Process.Start(info)!;
        }
        catch (System.ComponentModel.Win32Exception ex)
        {
            throw new InvalidOperationException("gcc is needed to build the libzmq peer process (apt-get install gcc libc6-dev libzmq3-dev).", ex);
        }

        using (gcc)
        {
            string errors = gcc.StandardError.ReadToEnd();
            if (!gcc.WaitForExit(60_000) || gcc.ExitCode != 0)
            {
                throw new InvalidOperationException($"gcc could not build zmq-peer (needs libzmq3-dev): {errors}");
            }
        }

        return executable;
    }
}
