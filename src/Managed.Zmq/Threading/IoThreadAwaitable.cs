using System.Runtime.CompilerServices;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Threading;

/// <summary>
/// <c>await</c> this to continue on an I/O thread, e.g. after a DNS lookup that completed on the
/// thread pool. Completes at once when already there.
/// </summary>
internal readonly struct IoThreadAwaitable(IoThread thread) : ICriticalNotifyCompletion
{
    public IoThreadAwaitable GetAwaiter() => this;

    public bool IsCompleted => thread.IsCurrent;

    public void GetResult()
    {
    }

    public void OnCompleted(Action continuation) => thread.Schedule(static s => ((Action)s!)(), continuation);

    public void UnsafeOnCompleted(Action continuation) => OnCompleted(continuation);
}
