namespace Managed.Zmq.Threading;

/// <summary>
/// Routes continuations captured on an I/O thread back to that thread, so that a connection's
/// async loops (socket awaits, timers, signals) always resume on the thread that owns it.
/// </summary>
internal sealed class IoSynchronizationContext : SynchronizationContext
{
    private readonly IoThread _thread;

    public IoSynchronizationContext(IoThread thread)
    {
        _thread = thread;
    }

    public override void Post(SendOrPostCallback d, object? state)
    {
        _thread.Schedule(static s =>
        {
            var (callback, callbackState) = ((SendOrPostCallback, object?))s!;
            callback(callbackState);
        }, (d, state));
    }

    public override void Send(SendOrPostCallback d, object? state)
    {
        if (_thread.IsCurrent)
        {
            d(state);
            return;
        }

        using var done = new ManualResetEventSlim();
        Post(s => { d(s); done.Set(); }, state);
        done.Wait();
    }

    public override SynchronizationContext CreateCopy() => this;
}
