using System.Diagnostics;

namespace Managed.Zmq.Samples.Tests;

/// <summary>Finds a sample's built dll and runs it as its own process, with a deadline.</summary>
internal static class SampleRunner
{
    /// <summary>Longest a sample may run; each does a handful of round trips over loopback.</summary>
    public static readonly TimeSpan Deadline = TimeSpan.FromSeconds(60);

    /// <summary>The repository root: the first folder above the test binaries with Managed.Zmq.sln.</summary>
    public static string RepositoryRoot { get; } = FindRoot();

    /// <summary>Runs samples/<paramref name="sample"/>; returns its exit code and output lines.</summary>
    public static (int ExitCode, string[] Lines, string Errors) Run(string sample, params string[] arguments)
    {
        // tests/Managed.Zmq.Samples.Tests/bin/<Configuration>/<tfm>/: the samples were built alike.
        var tfmDirectory = new DirectoryInfo(AppContext.BaseDirectory.TrimEnd(Path.DirectorySeparatorChar));
        string configuration = tfmDirectory.Parent!.Name;
        string dll = Path.Combine(RepositoryRoot, "samples", sample, "bin", configuration, tfmDirectory.Name, $"Sample.{sample}.dll");
        Assert.True(File.Exists(dll), $"{dll} was not built");

        var start = new ProcessStartInfo("dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            WorkingDirectory = Path.GetDirectoryName(dll)!,
        };
        start.ArgumentList.Add(dll);
        foreach (string argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using var process = Process.Start(start)!;
        var output = process.StandardOutput.ReadToEndAsync();
        var errors = process.StandardError.ReadToEndAsync();
        if (!process.WaitForExit(Deadline))
        {
            process.Kill(entireProcessTree: true);
            process.WaitForExit();
            Assert.Fail($"{sample} did not end within {Deadline.TotalSeconds} s; output so far:\n{output.Result}\n{errors.Result}");
        }

        process.WaitForExit(); // the redirected streams are complete after this
        string[] lines = output.Result.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        return (process.ExitCode, lines, errors.Result);
    }

    private static string FindRoot()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "Managed.Zmq.sln")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException("Managed.Zmq.sln not found above " + AppContext.BaseDirectory);
    }
}
