#if !INTEROP_WITHOUT_CORE
using System.Collections.Concurrent;
using System.Diagnostics;
using Managed.Zmq.InteropTests.Infrastructure;

namespace Managed.Zmq.InteropTests.Drafts;

/// <summary>
/// A C peer on the draft-enabled libzmq (built by <see cref="DraftCProgram"/>) in a process of its own, spoken to
/// through lines: it prints what it does ("endpoint …", "got …", "done", or "error &lt;what&gt; &lt;errno&gt;") and may
/// read commands on stdin. Killed on Dispose if still running.
/// </summary>
internal abstract class DraftCPeer : IDisposable
{
    private readonly string _name;
    private readonly BlockingCollection<string> _lines = [];
    private readonly List<string> _seen = [];
    private readonly StringWriter _errors = new();

    protected DraftCPeer(string name, string executable, params string[] arguments)
    {
        _name = name;
        var info = new ProcessStartInfo(executable)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (string argument in arguments)
        {
            info.ArgumentList.Add(argument);
        }

        Process = System.Diagnostics.Process.Start(info) ?? throw new InvalidOperationException($"{name} did not start");
        Process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is not null)
            {
                _lines.Add(e.Data);
            }
        };
        Process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is not null)
            {
                lock (_errors)
                {
                    _errors.WriteLine(e.Data);
                }
            }
        };
        Process.BeginOutputReadLine();
        Process.BeginErrorReadLine();
    }

    protected Process Process { get; }

    /// <summary>The rest of the next stdout line that starts with <paramref name="prefix"/>; fails at the I/O deadline or on an "error" line.</summary>
    public string ReadLine(string prefix) =>
        TryReadLine(prefix, (int)Timeouts.Io.TotalMilliseconds)
        ?? throw new Xunit.Sdk.XunitException($"{_name} never printed '{prefix}'; printed: {string.Join(" | ", _seen)}; stderr: {Errors}");

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
            Assert.False(line!.StartsWith("error ", StringComparison.Ordinal), $"{_name} failed: {line}; stderr: {Errors}");
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
        Assert.True(Process.WaitForExit((int)Timeouts.Io.TotalMilliseconds), $"{_name} did not exit");
        Assert.True(Process.ExitCode == 0, $"{_name} exited with {Process.ExitCode}; stderr: {Errors}");
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
        if (!Process.HasExited)
        {
            Process.Kill();
            Process.WaitForExit((int)Timeouts.Io.TotalMilliseconds);
        }

        Process.Dispose();
        _lines.Dispose();
    }
}
#endif
