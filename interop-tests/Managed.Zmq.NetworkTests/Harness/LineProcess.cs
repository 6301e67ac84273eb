using System.Collections.Concurrent;
using System.Diagnostics;
using System.Text;

namespace Managed.Zmq.NetworkTests.Harness;

/// <summary>
/// A process inside a namespace (<c>ip netns exec</c>) that answers each stdin line with one stdout
/// line. Every call has a deadline; the process is killed on <see cref="Dispose"/>.
/// </summary>
internal class LineProcess : IDisposable
{
    /// <summary>Longest wait for one reply; commands that wait themselves take their own time on top.</summary>
    public static readonly TimeSpan ReplyDeadline = TimeSpan.FromSeconds(15);

    private readonly Process _process;
    private readonly BlockingCollection<string> _lines = [];
    private readonly StringBuilder _stderr = new();

    protected LineProcess(string name, string nameSpace, string program, IEnumerable<string> args)
    {
        Name = name;
        var info = new ProcessStartInfo("ip")
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (string a in (string[])["netns", "exec", nameSpace, program, .. args])
        {
            info.ArgumentList.Add(a);
        }

        _process = Process.Start(info) ?? throw new InvalidOperationException($"{name} did not start");
        _process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is null)
            {
                _lines.CompleteAdding();
            }
            else
            {
                _lines.Add(e.Data);
            }
        };
        _process.ErrorDataReceived += (_, e) =>
        {
            lock (_stderr)
            {
                _stderr.AppendLine(e.Data);
            }
        };
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
    }

    public string Name { get; }

    /// <summary>Sends one command and returns its reply line.</summary>
    public string Call(string command, int extraMilliseconds = 0)
    {
        _process.StandardInput.WriteLine(command);
        _process.StandardInput.Flush();
        return NextLine($"the reply to `{Shorten(command)}`", (int)ReplyDeadline.TotalMilliseconds + extraMilliseconds);
    }

    /// <summary>Sends one command and fails unless the reply starts with "ok"; returns the rest.</summary>
    public string Ok(string command, int extraMilliseconds = 0)
    {
        string reply = Call(command, extraMilliseconds);
        Assert.True(reply == "ok" || reply.StartsWith("ok ", StringComparison.Ordinal), $"{Name}: `{Shorten(command)}` answered `{reply}`");
        return reply.Length > 3 ? reply[3..] : "";
    }

    protected string NextLine(string what, int timeoutMilliseconds)
    {
        try
        {
            if (_lines.TryTake(out string? line, timeoutMilliseconds))
            {
                return line;
            }
        }
        catch (InvalidOperationException)
        {
            // completed: the process ended
        }

        string stderr;
        lock (_stderr)
        {
            stderr = _stderr.ToString().Trim();
        }

        Assert.Fail($"{Name} gave no {what} within {timeoutMilliseconds} ms (exited: {_process.HasExited}); stderr: {stderr}");
        return "";
    }

    private static string Shorten(string command) => command.Length > 120 ? command[..120] + "…" : command;

    public void Dispose()
    {
        try
        {
            if (!_process.HasExited)
            {
                _process.Kill(entireProcessTree: true);
                _process.WaitForExit(5000);
            }
        }
        catch (InvalidOperationException)
        {
            // already gone
        }

        _process.Dispose();
    }
}
