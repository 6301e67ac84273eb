using Managed.Zmq.Internal;
using Managed.Zmq.Threading;
using Managed.Zmq.Endpoints;
using Managed.Zmq.Inproc;
using Managed.Zmq.Sockets;

namespace Managed.Zmq;

/// <content>What sockets and connections need from their context: registration, work counting, linger tracking and the choice of I/O thread.</content>
public sealed partial class Context
{
    internal void Register(SocketCore socket)
    {
        lock (_lock)
        {
            if (_disposed)
            {
                ThrowHelper.ThrowObjectDisposedException(nameof(Context));
            }

            if (_shutdown)
            {
                ThrowHelper.ThrowZmqException(ZmqConstants.ETERM);
            }

            if (_socketLimit < 0)
            {
                _socketLimit = _maxSockets;
            }

            if (_sockets.Count >= _socketLimit)
            {
                ThrowHelper.ThrowZmqException(ZmqConstants.EMFILE);
            }

            _sockets.Add(socket);
        }
    }

    internal void Unregister(SocketCore socket)
    {
        lock (_lock)
        {
            _sockets.Remove(socket);
            Monitor.PulseAll(_lock);
        }
    }

    /// <summary>A connection or connecter started: Dispose waits for it to end (linger).</summary>
    internal void BeginWork()
    {
        lock (_lock)
        {
            _work++;
        }
    }

    internal void EndWork()
    {
        lock (_lock)
        {
            _work--;
            Monitor.PulseAll(_lock);
        }
    }

    /// <summary>
    /// LINGER as termination applies it: with BLOCKY off, -1 counts as 0 (as in Net.Zmq); once a
    /// <see cref="Terminate"/> deadline has passed, every LINGER counts as 0.
    /// </summary>
    internal int EffectiveLinger(int linger)
    {
        if (Volatile.Read(ref _lingerAborted))
        {
            return 0;
        }

        return linger < 0 && Volatile.Read(ref _blocky) == 0 ? 0 : linger;
    }

    /// <summary>
    /// A closing socket's lingering connecter or connection (<paramref name="lingerer"/>): stopped at once if a
    /// <see cref="Terminate"/> deadline has passed or passes before it finishes. Held weakly, so one that
    /// finished is forgotten; dead entries are pruned as the list grows, so socket churn does not grow it.
    /// </summary>
    internal void TrackLingering(object lingerer)
    {
        bool now;
        lock (_lock)
        {
            now = _lingerAborted;
            if (!now)
            {
                if (_lingering.Count >= _lingeringPruneAt)
                {
                    _lingering.RemoveAll(static w => !w.IsAlive);
                    _lingeringPruneAt = Math.Max(Tuning.Sockets.LingeringPruneMinimum, _lingering.Count * 2);
                }

                _lingering.Add(new WeakReference(lingerer));
            }
        }

        if (now)
        {
            StopLingering(lingerer);
        }
    }

    private static void StopLingering(object? lingerer)
    {
        switch (lingerer)
        {
            case Endpoints.IEndpointHandle endpoint:
                endpoint.Stop(0);
                break;
            case Engine.IConnection connection:
                Endpoints.Lingerer.CloseConnection(connection, 0);
                break;
        }
    }

    /// <summary>The next I/O thread, round-robin; starts them on first use.</summary>
    internal IoThread NextIoThread()
    {
        var threads = _ioThreads ?? StartIoThreads();
        int index = (int)((uint)Interlocked.Increment(ref _nextIoThread) % (uint)threads.Length);
        return threads[index];
    }

    /// <summary>
    /// The I/O thread for a new connection or listener of a socket with ZMQ_AFFINITY <paramref name="affinity"/>:
    /// as libzmq, bit i allows I/O thread i and 0 allows all; among the allowed ones, round-robin. A mask that names
    /// no existing thread falls back to all of them, where libzmq would fail the bind or connect with EMTHREAD.
    /// </summary>
    internal IoThread NextIoThread(long affinity)
    {
        var threads = _ioThreads ?? StartIoThreads();
        int limit = Math.Min(threads.Length, 64);
        ulong allowed = (ulong)affinity & (limit == 64 ? ulong.MaxValue : (1UL << limit) - 1);
        if (allowed == 0)
        {
            return NextIoThread();
        }

        int count = System.Numerics.BitOperations.PopCount(allowed);
        int pick = (int)((uint)Interlocked.Increment(ref _nextIoThread) % (uint)count);
        for (int i = 0; i < limit; i++)
        {
            if ((allowed & (1UL << i)) != 0 && pick-- == 0)
            {
                return threads[i];
            }
        }

        return NextIoThread();
    }

    private IoThread[] StartIoThreads()
    {
        lock (_lock)
        {
            if (_ioThreads is null)
            {
                int count = Math.Max(1, _ioThreadCount);
                var threads = new IoThread[count];

                // As libzmq's "prefix/ZMQbg/IO/n": the prefix only once set, read when the threads start.
                string prefix = _threadNamePrefix is { } set ? $"{set}/" : "";
                for (int i = 0; i < count; i++)
                {
                    threads[i] = new IoThread($"{prefix}Managed.Zmq I/O {i}");
                }

                _ioThreads = threads;
            }

            return _ioThreads;
        }
    }
}
