using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Threading.Channels;

namespace Managed.Zmq.Scale;

/// <summary>Which server is under test.</summary>
internal enum ServerKind
{
    Managed,
    Libzmq,
}

/// <summary>
/// One server under test in its own process: started, asked for <c>gc</c>/<c>stats</c> over its
/// stdin with a timeout, measured through <c>/proc/PID</c>, and always killed at the end (also
/// when the driver exits or is interrupted).
/// </summary>
internal sealed class ServerProcess : IAsyncDisposable
{
    private static readonly List<Process> Live = [];
    private readonly Process _process;
    private readonly Channel<string> _lines = Channel.CreateUnbounded<string>();
    private readonly StringBuilder _stderr = new();
    private readonly SemaphoreSlim _control = new(1, 1);

    static ServerProcess()
    {
        AppDomain.CurrentDomain.ProcessExit += (_, _) => KillAll();
        Console.CancelKeyPress += (_, _) => KillAll();
    }

    private ServerProcess(Process process) => _process = process;

    public ServerKind Kind { get; private init; }

    public int Port { get; private set; }

    public int Pid => _process.Id;

    public bool Alive => !_process.HasExited;

    /// <summary>Starts a server in <paramref name="mode"/>; <paramref name="nofile"/> runs it under <c>prlimit --nofile=N:N</c>.</summary>
    public static async Task<ServerProcess> StartAsync(ScaleOptions options, ServerKind kind, string mode, IEnumerable<string>? extra = null, int? nofile = null)
    {
        var arguments = new List<string>();
        string file;
        if (kind == ServerKind.Managed)
        {
            string host = Environment.ProcessPath ?? "dotnet";
            file = host;
            if (Path.GetFileNameWithoutExtension(host) == "dotnet")
            {
                arguments.Add(typeof(ServerProcess).Assembly.Location);
            }

            arguments.Add("server");
        }
        else
        {
            file = options.Python;
            arguments.Add(options.PythonServer);
        }

        arguments.Add("--mode");
        arguments.Add(mode);
        arguments.AddRange(extra ?? []);
        if (nofile is { } limit)
        {
            // prlimit sets the limit on itself and then execs the server: the pid stays the server's.
            arguments.Insert(0, file);
            arguments.Insert(0, "--");
            arguments.Insert(0, string.Create(CultureInfo.InvariantCulture, $"--nofile={limit}:{limit}"));
            file = "prlimit";
        }

        var info = new ProcessStartInfo(file)
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

        var process = new Process { StartInfo = info };
        var server = new ServerProcess(process) { Kind = kind };
        process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is { } line)
            {
                server._lines.Writer.TryWrite(line);
            }
        };
        process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is { } line)
            {
                if (line.StartsWith("gc: ", StringComparison.Ordinal) || line.StartsWith("trim: ", StringComparison.Ordinal))
                {
                    // What the server's forced collection left: shown with the progress lines.
                    Console.Error.WriteLine("  [server] " + line);
                }

                lock (server._stderr)
                {
                    server._stderr.AppendLine(line);
                    if (server._stderr.Length > 4000)
                    {
                        server._stderr.Remove(0, server._stderr.Length - 4000);
                    }
                }
            }
        };
        process.Start();
        lock (Live)
        {
            Live.Add(process);
        }

        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        string? ready = await server.ReadLineAsync("ready", ScaleConstants.ServerStartTimeout).ConfigureAwait(false);
        if (ready is null)
        {
            string why = server.Fate();
            await server.DisposeAsync().ConfigureAwait(false);
            throw new InvalidOperationException($"{kind} server ({mode}) did not start: {why}");
        }

        server.Port = int.Parse(ready.AsSpan(6), CultureInfo.InvariantCulture);
        return server;
    }

    /// <summary>"alive", or how the process ended, with the tail of what it wrote to stderr.</summary>
    public string Fate()
    {
        if (!_process.HasExited)
        {
            return "alive";
        }

        int code = _process.ExitCode;
        string how = code > 128 && code < 160 ? $"killed by signal {code - 128}{SignalName(code - 128)}" : $"exit code {code}";
        string tail;
        lock (_stderr)
        {
            tail = _stderr.ToString().Trim().ReplaceLineEndings(" ");
        }

        if (tail.Length > 160)
        {
            tail = "…" + tail[^160..];
        }

        return tail.Length == 0 ? $"died ({how})" : $"died ({how}: {tail})";
    }

    /// <summary>Sends <c>gc</c> and waits for the answer; false when the server died or stalled.</summary>
    public async Task<bool> ForceGcAsync() => await CommandAsync("gc", "ok gc").ConfigureAwait(false) is not null;

    /// <summary>Sends <c>trim</c> (glibc's <c>malloc_trim(0)</c>) and waits for the answer; false when the server died or stalled.</summary>
    public async Task<bool> TrimAsync() => await CommandAsync("trim", "ok trim").ConfigureAwait(false) is not null;

    /// <summary>The server's counters, or null when it died or stalled.</summary>
    public async Task<Dictionary<string, long>?> StatsAsync()
    {
        string? line = await CommandAsync("stats", "stats").ConfigureAwait(false);
        if (line is null)
        {
            return null;
        }

        var result = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (string item in line.Split(' ', StringSplitOptions.RemoveEmptyEntries).Skip(1))
        {
            int eq = item.IndexOf('=', StringComparison.Ordinal);
            result[item[..eq]] = long.Parse(item.AsSpan(eq + 1), CultureInfo.InvariantCulture);
        }

        return result;
    }

    /// <summary>VmRSS in bytes, or null once the process is gone.</summary>
    public long? Rss() => ProcStatus("VmRSS:");

    /// <summary>
    /// VmRSS split as <c>/proc/PID/status</c> splits it, in MB: anonymous (heaps, stacks, what malloc
    /// and the GC hold), file (mapped code and data of the runtime, libraries, assemblies), shared
    /// memory (.NET's double-mapped JIT code and stubs, counted once per mapping); null once gone.
    /// </summary>
    public string? RssBreakdown()
    {
        if (ProcStatus("RssAnon:") is not { } anon || ProcStatus("RssFile:") is not { } file || ProcStatus("RssShmem:") is not { } shmem)
        {
            return null;
        }

        return string.Create(CultureInfo.InvariantCulture, $"RSS anon {anon / 1e6:0.0} MB, file {file / 1e6:0.0} MB, shmem {shmem / 1e6:0.0} MB");
    }

    /// <summary>VmHWM (peak RSS) in bytes, or null once the process is gone.</summary>
    public long? PeakRss() => ProcStatus("VmHWM:");

    /// <summary>User plus system CPU time the server has used so far, or null once it is gone.</summary>
    public TimeSpan? CpuTime()
    {
        try
        {
            string stat = File.ReadAllText($"/proc/{Pid}/stat");
            string[] fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            // Fields 14 and 15 of stat(5) (utime, stime), counted after the command name: indices 11 and 12.
            long ticks = long.Parse(fields[11], CultureInfo.InvariantCulture) + long.Parse(fields[12], CultureInfo.InvariantCulture);
            return TimeSpan.FromSeconds(ticks / (double)ClockTicksPerSecond);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException)
        {
            return null;
        }
    }

    public async ValueTask DisposeAsync()
    {
        try
        {
            if (!_process.HasExited)
            {
                await _process.StandardInput.WriteLineAsync("quit").ConfigureAwait(false);
                await _process.StandardInput.FlushAsync().ConfigureAwait(false);
                using var wait = new CancellationTokenSource(TimeSpan.FromSeconds(2));
                await _process.WaitForExitAsync(wait.Token).ConfigureAwait(false);
            }
        }
        catch (Exception e) when (e is IOException or OperationCanceledException or InvalidOperationException)
        {
            // A dead or stalled server: killed below.
        }

        Kill(_process);
        lock (Live)
        {
            Live.Remove(_process);
        }

        _process.Dispose();
    }

    private const int ClockTicksPerSecond = 100; // USER_HZ on Linux

    private async Task<string?> CommandAsync(string command, string answerPrefix)
    {
        await _control.WaitAsync().ConfigureAwait(false);
        try
        {
            if (_process.HasExited)
            {
                return null;
            }

            try
            {
                await _process.StandardInput.WriteLineAsync(command).ConfigureAwait(false);
                await _process.StandardInput.FlushAsync().ConfigureAwait(false);
            }
            catch (IOException)
            {
                return null;
            }

            return await ReadLineAsync(answerPrefix, ScaleConstants.ControlTimeout).ConfigureAwait(false);
        }
        finally
        {
            _control.Release();
        }
    }

    private async Task<string?> ReadLineAsync(string prefix, TimeSpan timeout)
    {
        using var cts = new CancellationTokenSource(timeout);
        try
        {
            while (true)
            {
                // Wake up now and then to notice a process that died without closing stdout.
                using var slice = CancellationTokenSource.CreateLinkedTokenSource(cts.Token);
                slice.CancelAfter(ScaleConstants.SampleInterval);
                try
                {
                    string line = await _lines.Reader.ReadAsync(slice.Token).ConfigureAwait(false);
                    if (line.StartsWith(prefix, StringComparison.Ordinal))
                    {
                        return line;
                    }
                }
                catch (OperationCanceledException) when (!cts.IsCancellationRequested)
                {
                    if (_process.HasExited && !_lines.Reader.TryPeek(out _))
                    {
                        return null;
                    }
                }
            }
        }
        catch (OperationCanceledException)
        {
            return null;
        }
    }

    private long? ProcStatus(string key)
    {
        try
        {
            foreach (string line in File.ReadLines($"/proc/{Pid}/status"))
            {
                if (line.StartsWith(key, StringComparison.Ordinal))
                {
                    return long.Parse(line.AsSpan(key.Length).Trim().TrimEnd("kB").Trim(), CultureInfo.InvariantCulture) * 1024;
                }
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or InvalidOperationException)
        {
            // Gone.
        }

        return null;
    }

    private static string SignalName(int signal) => signal switch
    {
        6 => " (SIGABRT)",
        9 => " (SIGKILL)",
        11 => " (SIGSEGV)",
        15 => " (SIGTERM)",
        _ => "",
    };

    private static void Kill(Process process)
    {
        try
        {
            if (!process.HasExited)
            {
                process.Kill(entireProcessTree: true);
                process.WaitForExit(5000);
            }
        }
        catch (Exception e) when (e is InvalidOperationException or System.ComponentModel.Win32Exception)
        {
            // Already gone.
        }
    }

    private static void KillAll()
    {
        Process[] live;
        lock (Live)
        {
            live = [.. Live];
        }

        foreach (var process in live)
        {
            Kill(process);
        }
    }
}
