namespace Managed.Zmq.Benchmarks;

/// <summary>
/// A long-lived sender thread for the pairs (<see cref="SocketPair"/>, <see cref="NetMqPair"/>): each
/// <see cref="Request"/> lets it run the batch delegate once with the count asked for, while the benchmark
/// thread receives the batch. A failure on the sender thread surfaces at the next request.
/// </summary>
internal sealed class BatchSender : IDisposable
{
    private readonly SemaphoreSlim _go = new(0);
    private readonly Action<int> _batch;
    private readonly Thread _thread;
    private volatile bool _stopping;
    private volatile Exception? _error;
    private int _count;

    public BatchSender(string name, Action<int> batch)
    {
        _batch = batch;
        _thread = new Thread(Run) { IsBackground = true, Name = name };
        _thread.Start();
    }

    /// <summary>Lets the sender thread send <paramref name="count"/> messages.</summary>
    public void Request(int count)
    {
        if (_error is { } error)
        {
            throw new InvalidOperationException("sender thread failed: " + error.Message, error);
        }

        Volatile.Write(ref _count, count);
        _go.Release();
    }

    /// <summary>Stops the thread and waits for it (at most the benchmark timeout); the sockets stay the owner's to close.</summary>
    public void Dispose()
    {
        _stopping = true;
        _go.Release();
        _thread.Join(Bench.TimeoutMilliseconds);
        _go.Dispose();
    }

    private void Run()
    {
        while (true)
        {
            _go.Wait();
            if (_stopping)
            {
                return;
            }

            try
            {
                _batch(Volatile.Read(ref _count));
            }
            catch (Exception ex)
            {
                _error = ex;
                return;
            }
        }
    }
}
