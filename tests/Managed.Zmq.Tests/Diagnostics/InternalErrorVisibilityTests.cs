using System.Collections.Concurrent;
using System.Diagnostics.Tracing;
using Managed.Zmq.Diagnostics;

namespace Managed.Zmq.Tests.Diagnostics;

/// <summary>
/// Tests that inject an internal error run alone: other suites assert that the internal-error counter does not
/// move while they run (InternalErrorsGuard).
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class InjectedInternalErrorCollection
{
    public const string Name = "Injected internal errors";
}

/// <summary>
/// Internal errors are visible in Release builds: an EventSource named "Managed.Zmq" and the
/// <see cref="Context.InternalError"/> event see an exception injected on a real I/O thread, and the I/O
/// thread keeps serving.
/// </summary>
[Collection(InjectedInternalErrorCollection.Name)]
public sealed class InternalErrorVisibilityTests
{
    private static readonly TimeSpan Deadline = TimeSpan.FromSeconds(10);

    [Fact]
    public void InternalError_ThrownOnIoThread_EventSourceAndHandlerSeeItAndThreadSurvives()
    {
        string marker = $"injected-{Guid.NewGuid():N}";
        using var listener = new ManagedZmqListener();
        using var handled = new ManualResetEventSlim();
        Exception? seen = null;
        EventHandler<Exception> handler = (_, ex) =>
        {
            if (ex.Message == marker)
            {
                seen = ex;
                handled.Set();
            }

            throw new InvalidOperationException("a handler's own failure is swallowed");
        };
        Context.InternalError += handler;
        try
        {
            using var context = new Context();
            var ioThread = context.NextIoThread();

            ioThread.Schedule(static state => throw new InvalidOperationException((string)state!), marker);

            Assert.True(handled.Wait(Deadline), "Context.InternalError was not raised");
            Assert.IsType<InvalidOperationException>(seen);
            var written = listener.WaitFor(e => e.EventId == ZmqEventSource.InternalErrorId && (string)e.Payload![1]! == marker, Deadline);
            Assert.Equal(EventLevel.Error, written.Level);
            Assert.Equal(typeof(InvalidOperationException).FullName, written.Payload![0]);
            AssertIoThreadStillServes(context);
        }
        finally
        {
            Context.InternalError -= handler;
        }
    }

    [Fact]
    public void SocketEvent_ConnectionAccepted_WrittenToEventSourceWithoutMonitor()
    {
        using var listener = new ManagedZmqListener();
        using var context = new Context();
        using var pull = new Socket(context, SocketType.Pull);
        using var push = new Socket(context, SocketType.Push);
        pull.SetOption(SocketOption.Linger, 0);
        push.SetOption(SocketOption.Linger, 0);
        pull.SetOption(SocketOption.Rcvtimeo, 5000);
        pull.Bind("tcp://127.0.0.1:*");
        string endpoint = pull.GetOptionString(SocketOption.Last_Endpoint);

        push.Connect(endpoint);
        push.Send("x");
        Assert.Equal("x", pull.RecvString());

        var accepted = listener.WaitFor(
            e => e.EventId == ZmqEventSource.SocketEventId && (int)e.Payload![0]! == (int)SocketMonitorEvent.Accepted && (string)e.Payload[2]! == endpoint,
            Deadline);
        Assert.Equal(EventLevel.Informational, accepted.Level);
    }

    private static void AssertIoThreadStillServes(Context context)
    {
        using var pull = new Socket(context, SocketType.Pull);
        using var push = new Socket(context, SocketType.Push);
        pull.SetOption(SocketOption.Linger, 0);
        push.SetOption(SocketOption.Linger, 0);
        pull.SetOption(SocketOption.Rcvtimeo, 5000);
        pull.Bind("tcp://127.0.0.1:*");
        push.Connect(pull.GetOptionString(SocketOption.Last_Endpoint));
        push.Send("still alive");
        Assert.Equal("still alive", pull.RecvString());
    }

    /// <summary>Listens to the "Managed.Zmq" source at every level and keeps what it wrote.</summary>
    private sealed class ManagedZmqListener : EventListener
    {
        private readonly BlockingCollection<EventWrittenEventArgs> _events = [];

        public EventWrittenEventArgs WaitFor(Func<EventWrittenEventArgs, bool> match, TimeSpan timeout)
        {
            var deadline = DateTime.UtcNow + timeout;
            while (true)
            {
                var left = deadline - DateTime.UtcNow;
                Assert.True(left > TimeSpan.Zero, "the event was not written in time");
                if (_events.TryTake(out var next, left) && match(next))
                {
                    return next;
                }
            }
        }

        public override void Dispose()
        {
            base.Dispose();
            _events.Dispose();
        }

        protected override void OnEventSourceCreated(EventSource eventSource)
        {
            if (eventSource.Name == ZmqEventSource.SourceName)
            {
                EnableEvents(eventSource, EventLevel.Verbose);
            }
        }

        protected override void OnEventWritten(EventWrittenEventArgs eventData)
        {
            if (eventData.EventSource.Name == ZmqEventSource.SourceName)
            {
                _events.TryAdd(eventData);
            }
        }
    }
}
