using Managed.Zmq.Diagnostics;
using Managed.Zmq.Threading;
using static Managed.Zmq.Tests.Threading.ReactorSockets;
using Managed.Zmq.Internal;

namespace Managed.Zmq.Tests.Threading;

public class IoThreadReadinessTests
{
    [Fact(Timeout = 60_000)]
    public async Task WatchRead_ParkedSocket_WakesWhenDataArrives()
    {
        await Task.Yield();
        using var thread = new IoThread("test reactor", Tuning.Reactor.MaxSelectSet, parkAboveReaders: 0);
        var pairs = Pairs(1);
        try
        {
            var (client, server) = pairs[0];
            var handler = new RecordingHandler(server);
            OnThread(thread, () => thread.WatchRead(server, handler));

            // Quiet past the park delay: the socket leaves Select for the runtime's socket engine.
            Until(() => thread.ParkedCount == 1, "the idle socket was not parked");
            Assert.Equal(0, handler.Readable);

            client.Send([1, 2, 3]);
            Assert.True(handler.ReadableSignal.Wait(WaitLimit), "the parked socket was not woken by its input");
            Assert.Equal(1, handler.Readable);
            Assert.Equal(0, thread.ParkedCount);

            // Back on the inline path: watched again, it is woken again.
            OnThread(thread, () => thread.WatchRead(server, handler));
            client.Send([4]);
            Assert.True(handler.ReadableSignal.Wait(WaitLimit), "the socket was not woken after its park");
        }
        finally
        {
            DisposeAll(pairs);
        }
    }

    [Fact(Timeout = 60_000)]
    public async Task WatchRead_ParkedAgainAndAgain_WokenEveryTime()
    {
        await Task.Yield();
        using var thread = new IoThread("test reactor", Tuning.Reactor.MaxSelectSet, parkAboveReaders: 0);
        var pairs = Pairs(1);
        try
        {
            var (client, server) = pairs[0];
            var handler = new RecordingHandler(server);
            for (int i = 0; i < 10; i++)
            {
                OnThread(thread, () => thread.WatchRead(server, handler));
                Until(() => thread.ParkedCount == 1, $"the idle socket was not parked (round {i})");
                client.Send([(byte)i]);
                Assert.True(handler.ReadableSignal.Wait(WaitLimit), $"the parked socket was not woken (round {i})");
                Until(() => thread.ParkedCount == 0, $"the park did not end (round {i})");
            }
        }
        finally
        {
            DisposeAll(pairs);
        }
    }

    [Fact(Timeout = 60_000)]
    public async Task Forget_ParkedSocketThenClosed_HandlerNotCalled()
    {
        await Task.Yield();
        using var thread = new IoThread("test reactor", Tuning.Reactor.MaxSelectSet, parkAboveReaders: 0);
        var pairs = Pairs(1);
        try
        {
            var (client, server) = pairs[0];
            var handler = new RecordingHandler(server);
            OnThread(thread, () => thread.WatchRead(server, handler));
            Until(() => thread.ParkedCount == 1, "the idle socket was not parked");

            OnThread(thread, () =>
            {
                thread.Forget(server);
                server.Dispose();
            });

            // The aborted zero-byte receive completes on the I/O thread, which drops it.
            Until(() => thread.ParkedCount == 0, "the aborted park never completed");
            OnThread(thread, () => { });
            Assert.Equal(0, handler.Readable);
            Assert.False(handler.Faulted.IsSet);
        }
        finally
        {
            DisposeAll(pairs);
        }
    }

    [Fact(Timeout = 120_000)]
    public async Task WatchRead_MoreSocketsThanSelectCap_SelectSetStaysWithinCapAndAllAreWoken()
    {
        await Task.Yield();
        const int Cap = 16;
        const int Count = 64;
        using var thread = new IoThread("test reactor", Cap, parkAboveReaders: 0);
        var pairs = Pairs(Count);
        try
        {
            var handlers = pairs.Select(pair => new RecordingHandler(pair.Server)).ToList();
            OnThread(thread, () =>
            {
                foreach (var handler in handlers)
                {
                    thread.WatchRead(handler.Socket, handler);
                }
            });

            // Those that do not fit are parked at once, whatever their age.
            Until(() => thread.ParkedCount >= Count - Cap, "the overflow was not parked");
            foreach (var (client, _) in pairs)
            {
                client.Send([1]);
            }

            foreach (var handler in handlers)
            {
                Assert.True(handler.ReadableSignal.Wait(WaitLimit), "a socket was never woken");
            }

            Assert.InRange(thread.LargestSelectSet, 1, Cap);
        }
        finally
        {
            DisposeAll(pairs);
        }
    }

    [Fact(Timeout = 120_000)]
    public async Task WatchWrite_MoreWritersThanSelectCap_AllAreWokenInTurns()
    {
        await Task.Yield();
        const int Cap = 4;
        const int Count = 20;
        using var thread = new IoThread("test reactor", Cap, parkAboveReaders: 0);
        var pairs = Pairs(Count);
        try
        {
            var handlers = pairs.Select(pair => new RecordingHandler(pair.Server)).ToList();
            OnThread(thread, () =>
            {
                foreach (var handler in handlers)
                {
                    thread.WatchWrite(handler.Socket, handler);
                }
            });

            Until(() => handlers.All(handler => handler.Writable == 1), "a writer was never woken");
            Assert.InRange(thread.LargestSelectSet, 1, Cap);
        }
        finally
        {
            DisposeAll(pairs);
        }
    }

    [Fact(Timeout = 60_000)]
    public async Task WatchRead_AllSocketsQuiet_HotSetEmpties()
    {
        await Task.Yield();
        using var thread = new IoThread("test reactor", Tuning.Reactor.MaxSelectSet, parkAboveReaders: 0);
        var pairs = Pairs(8);
        try
        {
            var handlers = pairs.Select(pair => new RecordingHandler(pair.Server)).ToList();
            OnThread(thread, () => handlers.ForEach(handler => thread.WatchRead(handler.Socket, handler)));
            Until(() => thread.ParkedCount == 8, "the idle sockets were not parked");

            // Nothing hot: the next Select waits for the wake-up channel alone, with no park deadline.
            OnThread(thread, () => { });
            Until(() => thread.HotCount == 0, "the hot set did not empty");
        }
        finally
        {
            DisposeAll(pairs);
        }
    }
}

/// <summary>Tests that make <see cref="InternalErrors.Count"/> move run alone, so the guards of other tests do not see it.</summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class InternalErrorsCollection
{
    public const string Name = "Moves InternalErrors.Count";
}

[Collection(InternalErrorsCollection.Name)]
public class IoThreadFaultTests
{
    [Fact(Timeout = 60_000)]
    public async Task OnReadable_HandlerThrows_ReportedAndOtherSocketsKeepWorking()
    {
        await Task.Yield();
        using var thread = new IoThread("test reactor", Tuning.Reactor.MaxSelectSet, parkAboveReaders: 0);
        var pairs = Pairs(2);
        try
        {
            var faulty = new RecordingHandler(pairs[0].Server, throwOnReadable: true);
            var healthy = new RecordingHandler(pairs[1].Server);
            long errorsBefore = InternalErrors.Count;
            OnThread(thread, () =>
            {
                thread.WatchRead(faulty.Socket, faulty);
                thread.WatchRead(healthy.Socket, healthy);
            });

            pairs[0].Client.Send([1]);
            Assert.True(faulty.Faulted.Wait(WaitLimit), "the faulty handler was not told");
            Assert.Equal(errorsBefore + 1, InternalErrors.Count);

            // The thread is alive: the other socket is served, again and again.
            for (int i = 0; i < 3; i++)
            {
                pairs[1].Client.Send([2]);
                Assert.True(healthy.ReadableSignal.Wait(WaitLimit), "the healthy socket was not served after the fault");
                OnThread(thread, () => thread.WatchRead(healthy.Socket, healthy));
            }

            // The faulty socket was forgotten: more input does not reach its handler again.
            pairs[0].Client.Send([3]);
            OnThread(thread, () => { });
            Assert.Equal(1, faulty.Readable);
            Assert.Equal(errorsBefore + 1, InternalErrors.Count);
        }
        finally
        {
            DisposeAll(pairs);
        }
    }
}
