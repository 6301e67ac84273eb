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
    private static readonly Lazy<string> s_executable = new(() => DraftCProgram.Compile("draft-peer"));

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
}
#endif
