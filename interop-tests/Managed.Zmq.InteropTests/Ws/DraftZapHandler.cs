using Managed.Zmq.InteropTests.Infrastructure;

namespace Managed.Zmq.InteropTests.Ws;

/// <summary>
/// A ZAP handler (RFC 27) in a draft-libzmq context that admits everyone with status 200: libzmq's
/// PLAIN server needs one. Serves on its own thread until disposed.
/// </summary>
internal sealed class DraftZapHandler : IDisposable
{
    private readonly Thread _thread;
    private readonly ManualResetEventSlim _ready = new();
    private volatile bool _stop;
    private Exception? _failure;

    public DraftZapHandler(DraftContext context)
    {
        _thread = new Thread(() => Serve(context)) { IsBackground = true, Name = "draft ZAP handler" };
        _thread.Start();
        if (!_ready.Wait(Timeouts.Io))
            throw new TimeoutException("The draft ZAP handler did not bind in time.");
        if (_failure is not null)
            throw new InvalidOperationException("The draft ZAP handler failed to start.", _failure);
    }

    private void Serve(DraftContext context)
    {
        DraftSocket? rep = null;
        try
        {
            rep = context.Socket(SocketType.Rep);
            rep.Bind("inproc://zeromq.zap.01");
        }
        catch (Exception ex)
        {
            _failure = ex;
            rep?.Dispose();
            _ready.Set();
            return;
        }

        _ready.Set();
        try
        {
            while (!_stop)
            {
                var request = rep.TryRecvMessage(Timeouts.Probe);
                if (request is null)
                    continue;
                // version, request id, status code, status text, user id, metadata.
                rep.SendMessage(Bytes.Of("1.0"), request[1], Bytes.Of("200"), Bytes.Of("OK"), Bytes.Of("user"), []);
            }
        }
        catch (Exception ex)
        {
            // Reported by Dispose; an exception escaping this thread would end the test host.
            _failure = ex;
        }
        finally
        {
            rep.Dispose();
        }
    }

    public void Dispose()
    {
        _stop = true;
        _thread.Join(Timeouts.Io);
        _ready.Dispose();
        if (_failure is not null)
            throw new InvalidOperationException("The draft ZAP handler failed.", _failure);
    }
}
