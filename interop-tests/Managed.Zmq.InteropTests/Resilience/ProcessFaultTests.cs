using System.Diagnostics;
using System.Text;
using Managed.Zmq.Diagnostics;
using Managed.Zmq.InteropTests.Infrastructure;

namespace Managed.Zmq.InteropTests.Resilience;

/// <summary>
/// Faults that only another process can cause: a libzmq peer killed with SIGKILL while we send
/// and while we receive, and a libzmq listener that comes back on the same port. Our socket must
/// notice (DISCONNECTED), throw nothing but EAGAIN, deliver whole messages only, and reconnect.
/// </summary>
public sealed class ProcessFaultTests : IDisposable
{
    private const int Timeout = 10_000;

    private readonly Context _context = new();
    private readonly long _internalErrorsBefore = InternalErrors.Count;

    [Fact]
    public void Sigkill_LibzmqPullMidStream_PushSurvivesAndQueuedMessagesReachRestartedListener()
    {
        using var push = new Socket(_context, SocketType.Push);
        push.SetOption(SocketOption.Linger, 0);
        push.SetOption(SocketOption.Sndhwm, 1000);
        push.SetOption(SocketOption.Sndtimeo, 50);
        push.SetOption(SocketOption.Reconnect_Ivl, 20);
        using var monitor = MonitorReader.Attach(_context, push);

        string endpoint;
        using (var first = NativePeerProcess.Start("pull-bind", "tcp://127.0.0.1:*"))
        {
            endpoint = first.WaitForLine(l => l.StartsWith("bound ", StringComparison.Ordinal), "its endpoint")["bound ".Length..];
            push.Connect(endpoint);

            // Stream until libzmq has taken 300 messages, then kill it while we keep sending.
            int sent = SendUntil(push, () => first.TryWaitForLine(l => l == "count 300", 0) is not null);
            Assert.True(sent >= 300);
            first.Kill();
        }

        monitor.WaitFor(SocketMonitorEvent.Disconnected);
        for (int i = 0; i < 200; i++)
        {
            // The peer is gone: sends queue up to HWM or report EAGAIN, nothing else.
            TrySend(push, Encoding.ASCII.GetBytes("filler"));
        }

        // Drain what was queued for the dead peer is not required; markers sent now must all arrive.
        using var second = StartOnSamePort(endpoint);
        monitor.WaitFor(SocketMonitorEvent.Connected);
        var markers = Enumerable.Range(0, 50).Select(i => $"M{i}").ToArray();
        foreach (string marker in markers)
        {
            push.SetOption(SocketOption.Sndtimeo, Timeout);
            Assert.True(push.Send(marker));
        }

        foreach (string marker in markers)
        {
            second.WaitForLine(l => l == $"got {marker}", marker);
        }

        Assert.Equal(_internalErrorsBefore, InternalErrors.Count);
    }

    [Fact]
    public void ListenerRestart_MessagesQueuedWhileDownWithinHwm_AllDelivered()
    {
        using var push = new Socket(_context, SocketType.Push);
        push.SetOption(SocketOption.Linger, 0);
        push.SetOption(SocketOption.Sndhwm, 100);
        push.SetOption(SocketOption.Sndtimeo, Timeout);
        push.SetOption(SocketOption.Reconnect_Ivl, 20);
        using var monitor = MonitorReader.Attach(_context, push);
        string endpoint;
        using (var first = NativePeerProcess.Start("pull-bind", "tcp://127.0.0.1:*"))
        {
            endpoint = first.WaitForLine(l => l.StartsWith("bound ", StringComparison.Ordinal), "its endpoint")["bound ".Length..];
            push.Connect(endpoint);
            Assert.True(push.Send("Mfirst"));
            first.WaitForLine(l => l == "got Mfirst", "Mfirst");
            first.Kill();
        }

        monitor.WaitFor(SocketMonitorEvent.Disconnected);

        // Queued while nobody listens: 60 messages, within SNDHWM 100.
        for (int i = 0; i < 60; i++)
        {
            Assert.True(push.Send($"M{i}", SendFlags.DontWait), $"message {i} fits under the HWM");
        }

        using var second = StartOnSamePort(endpoint);
        for (int i = 0; i < 60; i++)
        {
            second.WaitForLine(l => l == $"got M{i}", $"M{i}");
        }

        Assert.Equal(_internalErrorsBefore, InternalErrors.Count);
    }

    [Fact]
    public void Sigkill_LibzmqPushMidStream_PullReceivesWholeMessagesAndStaysUsable()
    {
        using var pull = new Socket(_context, SocketType.Pull);
        pull.SetOption(SocketOption.Linger, 0);
        pull.SetOption(SocketOption.Rcvtimeo, Timeout);
        using var monitor = MonitorReader.Attach(_context, pull);
        pull.Bind("tcp://127.0.0.1:*");
        string endpoint = pull.GetOptionString(SocketOption.Last_Endpoint);

        long last = -1;
        using (var pusher = NativePeerProcess.Start("push-connect", endpoint))
        {
            for (int i = 0; i < 500; i++)
            {
                last = ReceiveWhole(pull, last);
            }

            pusher.Kill();
        }

        // Whatever arrived before the kill is delivered whole and in order, then nothing. As in
        // libzmq, a connection whose reader is paused at RCVHWM notices the reset only once the
        // application drains the queue, so DISCONNECTED is expected after the drain.
        pull.SetOption(SocketOption.Rcvtimeo, 300);
        while (true)
        {
            try
            {
                last = ReceiveWhole(pull, last);
            }
            catch (ZmqException ex) when (ex.ErrorNumber == ZmqConstants.EAGAIN)
            {
                break;
            }
        }

        monitor.WaitFor(SocketMonitorEvent.Disconnected);
        pull.SetOption(SocketOption.Rcvtimeo, Timeout);
        using (var again = NativePeerProcess.Start("push-connect", endpoint))
        {
            Assert.Equal(0, ReceiveWhole(pull, -1));
        }

        Assert.Equal(_internalErrorsBefore, InternalErrors.Count);
    }

    /// <summary>Receives one ["a", 1024 × 'x', sequence] message; returns its sequence, which must follow <paramref name="previous"/>.</summary>
    private static long ReceiveWhole(Socket pull, long previous)
    {
        Assert.Equal("a", pull.RecvString());
        Assert.True(pull.HasMore);
        var body = pull.RecvBytes();
        Assert.Equal(1024, body.Length);
        Assert.True(pull.HasMore);
        long sequence = long.Parse(pull.RecvString(), System.Globalization.CultureInfo.InvariantCulture);
        Assert.False(pull.HasMore);
        Assert.True(previous < 0 || sequence == previous + 1, $"sequence {sequence} after {previous}");
        return sequence;
    }

    private static NativePeerProcess StartOnSamePort(string endpoint)
    {
        // After SIGKILL the kernel frees the port at once, and libzmq binds with SO_REUSEADDR.
        var clock = Stopwatch.StartNew();
        while (true)
        {
            var peer = NativePeerProcess.Start("pull-bind", endpoint);
            string line = peer.WaitForLine(l => l.StartsWith("bound ", StringComparison.Ordinal) || l.StartsWith("error ", StringComparison.Ordinal), "bound or error");
            if (line.StartsWith("bound ", StringComparison.Ordinal))
            {
                return peer;
            }

            peer.Dispose();
            Assert.True(clock.ElapsedMilliseconds < Timeout, $"could not bind {endpoint} again: {line}");
        }
    }

    private static int SendUntil(Socket push, Func<bool> done)
    {
        var payload = new byte[512];
        var clock = Stopwatch.StartNew();
        int sent = 0;
        while (!done())
        {
            Assert.True(clock.ElapsedMilliseconds < Timeout, $"libzmq did not take 300 messages of {sent} in time");
            for (int i = 0; i < 50; i++)
            {
                if (TrySend(push, payload))
                {
                    sent++;
                }
            }
        }

        return sent;
    }

    private static bool TrySend(Socket socket, byte[] payload)
    {
        try
        {
            return socket.Send(payload);
        }
        catch (ZmqException ex) when (ex.ErrorNumber == ZmqConstants.EAGAIN)
        {
            return false;
        }
    }

    public void Dispose() => Deadline.Dispose(_context, "Context.Dispose after every socket was closed with Linger 0");
}
