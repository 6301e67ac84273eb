using System.Diagnostics;

namespace Managed.Zmq.NetworkTests.Harness;

/// <summary>Runs iproute2's <c>ip</c> and fails with its stderr when it fails.</summary>
internal static class IpCommand
{
    private static readonly TimeSpan s_deadline = TimeSpan.FromSeconds(20);

    public static string Run(params string[] args)
    {
        var (code, output, error) = TryRun(args);
        if (code != 0)
        {
            throw new InvalidOperationException($"`ip {string.Join(' ', args)}` failed ({code}): {error.Trim()}");
        }

        return output;
    }

    public static (int Code, string Output, string Error) TryRun(params string[] args)
    {
        var info = new ProcessStartInfo("ip")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (string a in args)
        {
            info.ArgumentList.Add(a);
        }

        using var process = Process.Start(info) ?? throw new InvalidOperationException("could not start `ip`");
        var output = process.StandardOutput.ReadToEndAsync();
        var error = process.StandardError.ReadToEndAsync();
        if (!process.WaitForExit(s_deadline))
        {
            process.Kill();
            throw new TimeoutException($"`ip {string.Join(' ', args)}` did not finish within {s_deadline.TotalSeconds} s");
        }

        return (process.ExitCode, output.Result, error.Result);
    }
}
