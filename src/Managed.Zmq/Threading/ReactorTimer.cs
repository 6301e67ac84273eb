namespace Managed.Zmq.Threading;

/// <summary>A one-shot timer of an <see cref="IoThread"/>; its callback runs on that thread.</summary>
internal sealed class ReactorTimer
{
    public ReactorTimer(long dueTicks, Action<object?> callback, object? state)
    {
        DueTicks = dueTicks;
        Callback = callback;
        State = state;
    }

    /// <summary>When it fires, in <see cref="Environment.TickCount64"/> milliseconds.</summary>
    public long DueTicks { get; }

    public Action<object?> Callback { get; }

    public object? State { get; }

    /// <summary>Set by <see cref="Cancel"/>; a cancelled timer is skipped when its turn comes.</summary>
    public bool IsCancelled { get; private set; }

    /// <summary>Cancels it. I/O thread only.</summary>
    public void Cancel() => IsCancelled = true;
}
