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
    private static readonly Lazy<string> s_executable = new(() => DraftCProgram.Compile("radio-dish-peer"));

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
}
#endif
