#if !INTEROP_WITHOUT_CORE
using System.Diagnostics;
using Managed.Zmq.InteropTests.Ws;

namespace Managed.Zmq.InteropTests.Drafts;

/// <summary>
/// Compiles a C peer from Drafts/ with gcc against the draft-enabled libzmq that
/// interop-tests/native/build-draft-libzmq.sh builds, found as <see cref="DraftLibZmq.FindLibrary"/> finds it;
/// when there is none the test FAILS with the command that builds it: interop tests are never skipped.
/// </summary>
internal static class DraftCProgram
{
    /// <summary>Builds Drafts/<paramref name="name"/>.c into a per-process folder and returns the executable's path.</summary>
    public static string Compile(string name)
    {
        string prefix = FindPrefix();
        string source = Path.Combine(AppContext.BaseDirectory, "Drafts", name + ".c");
        string directory = Path.Combine(Path.GetTempPath(), $"managed-zmq-{name}-{Environment.ProcessId}");
        Directory.CreateDirectory(directory);
        string executable = Path.Combine(directory, name);
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
        Assert.True(gcc.WaitForExit(60_000) && gcc.ExitCode == 0, $"gcc could not build {name}: {errors}");
        return executable;
    }

    /// <summary>The draft libzmq's install prefix (lib/ and include/), or a failure naming the build command.</summary>
    private static string FindPrefix()
    {
        string? library = DraftLibZmq.FindLibrary();
        if (string.IsNullOrEmpty(library) || !File.Exists(library))
        {
            Assert.Fail($"The draft-enabled libzmq was not found ({DraftLibZmq.EnvironmentVariable}=" +
                $"{Environment.GetEnvironmentVariable(DraftLibZmq.EnvironmentVariable) ?? "unset"}, nothing under {DraftLibZmq.DefaultCacheRoot}). " +
                "Build it with: bash interop-tests/native/build-draft-libzmq.sh");
        }

        string prefix = Path.GetDirectoryName(Path.GetDirectoryName(library))!;
        Assert.True(File.Exists(Path.Combine(prefix, "include", "zmq.h")), $"no include/zmq.h beside the draft libzmq {library}");
        return prefix;
    }
}
#endif
