namespace Managed.Zmq.Samples.Tests;

/// <summary>Every sample under samples/ runs to completion and prints what its doc says it prints.</summary>
public sealed class SampleTests
{
    public static TheoryData<string, string[]> Samples => new()
    {
        { "ReqRep", ["hello 0 -> world 0", "hello 1 -> world 1", "hello 2 -> world 2"] },
        { "PubSub", ["subscribed: weather.", "weather.london: 12 C", "weather.paris: 14 C"] },
        { "RadioDish", ["joined: weather", "weather: 12 C", "udp alerts: storm"] },
        { "PushPull", ["sink: 100 results, sum of squares 1..100 = 338350"] },
        {
            "ScatterGather",
            [
                "gather: 100 tasks from 4 threads, sum 1..100 = 5050", "scatter: multipart refused (EINVAL)",
                "channel right got: ping", "channel left got: pong",
            ]
        },
        { "WebSocket", ["ws server got: over ws", "ws client got: ws reply", "wss server got: over wss", "wss client got: wss reply"] },
        { "PeerToPeer", ["node got: hello (from a peer it can answer by id)", "peer got: hello back (from the id ConnectPeer returned: True)"] },
        {
            "RouterDealer",
            [
                "router: 'what time is it?' from alice", "alice: hello alice, it is tea time",
                "router: 'what time is it?' from bob", "bob: hello bob, it is tea time",
            ]
        },
        { "PairInproc", ["step 1 ready", "step 1 did 'compress the logs'"] },
        { "PlainAuth", ["server got: status?", "client got: all good", "intruder refused: event 0x4000, ZAP status 400"] },
        { "CurveAuth", ["server public key: 40 characters of Z85", "server got: encrypted hello", "client got: encrypted reply"] },
        { "Quickstart", ["hello", "2 frames, first: job-42", "ping", "pong"] },
        {
            "ClientServer",
            [
                "alice got: alice job 0 done", "alice got: alice job 1 done", "alice got: alice job 2 done",
                "bob got: bob job 0 done", "bob got: bob job 1 done", "bob got: bob job 2 done",
                "server: 6 requests answered by 3 threads",
            ]
        },
        { "Tuning", ["received 1048768 bytes in 4 messages", "async hello", "pool: 3 rents"] },
    };

    [Theory]
    [MemberData(nameof(Samples))]
    public void Sample_Runs_PrintsItsDocumentedOutput(string sample, string[] expected)
    {
        var (exitCode, lines, errors) = SampleRunner.Run(sample);

        Assert.True(exitCode == 0, $"{sample} exited with {exitCode}: {errors}");
        Assert.Equal(expected, lines);
    }

    [Fact]
    public void CurveAuth_KeysStoredInADirectory_SecondRunLoadsThem()
    {
        string directory = Path.Combine(Path.GetTempPath(), $"curve-keys-test-{Guid.NewGuid():N}");
        try
        {
            var first = SampleRunner.Run("CurveAuth", directory);
            string serverPublic = File.ReadAllText(Path.Combine(directory, "server.key"));
            var second = SampleRunner.Run("CurveAuth", directory);

            Assert.Equal(0, first.ExitCode);
            Assert.Equal(0, second.ExitCode);
            Assert.Equal(first.Lines, second.Lines);
            Assert.Equal(serverPublic, File.ReadAllText(Path.Combine(directory, "server.key")));
            if (!OperatingSystem.IsWindows())
            {
                Assert.Equal(UnixFileMode.UserRead | UnixFileMode.UserWrite, File.GetUnixFileMode(Path.Combine(directory, "server.key_secret")));
            }
        }
        finally
        {
            if (Directory.Exists(directory))
            {
                Directory.Delete(directory, recursive: true);
            }
        }
    }

    /// <summary>Against a real libzmq node: Debian's python3-zmq for /usr/bin/python3 (.ci/run installs it).</summary>
    [Fact]
    public void MixedCluster_WithPyzmqNode_CurveBothWays()
    {
        var (exitCode, lines, errors) = SampleRunner.Run("MixedCluster", "/usr/bin/python3");

        Assert.True(exitCode == 0, $"MixedCluster exited with {exitCode}: {errors}");
        Assert.Equal(4, lines.Length);
        Assert.StartsWith("C# REP got: hello from libzmq 4.", lines[0], StringComparison.Ordinal);
        Assert.Equal("libzmq REQ got: hello from Managed.Zmq", lines[1]);
        Assert.Equal("C# SUB got: status: libzmq node up", lines[2]);
        Assert.Equal("mixed cluster: done", lines[3]);
    }

    /// <summary>PeerMonitor for three seconds: it lists both peers, drops the one that reads nothing, keeps the other.</summary>
    [Fact]
    public void PeerMonitor_ThreeSeconds_DropsTheSlowPeerOnly()
    {
        var (exitCode, lines, errors) = SampleRunner.Run("PeerMonitor", "3");

        Assert.True(exitCode == 0, $"PeerMonitor exited with {exitCode}: {errors}");
        Assert.Contains(lines, line => line.StartsWith("peer fast at tcp://127.0.0.1:", StringComparison.Ordinal));
        Assert.Contains(lines, line => line.StartsWith("peer slow at tcp://127.0.0.1:", StringComparison.Ordinal));
        Assert.Contains(lines, line => line.StartsWith("dropping slow: ", StringComparison.Ordinal));
        Assert.DoesNotContain(lines, line => line.StartsWith("dropping fast", StringComparison.Ordinal));
        Assert.StartsWith("tick 3: ", lines[^2], StringComparison.Ordinal);
        Assert.Equal("done", lines[^1]);
    }
}
