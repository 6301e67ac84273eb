using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.InteropTests.Security;

/// <summary>A ZAP reply's status and user id (RFC 27 §Message Format).</summary>
internal readonly record struct ZapAnswer(string Status, string UserId = "")
{
    public static ZapAnswer Accept => new("200", "user");

    public static ZapAnswer Of(int status) => new(status.ToString(System.Globalization.CultureInfo.InvariantCulture), status == 200 ? "user" : "");
}

/// <summary>
/// A ZAP handler (RFC 27) on its own thread: a REP bound at <c>inproc://zeromq.zap.01</c> that
/// records each request (the frames after the delimiter, which REP strips) and answers with
/// whatever <c>decide</c> returns. Written once over <see cref="IEnd"/>, so the same handler runs
/// in our context and in libzmq's.
/// </summary>
internal sealed class ZapHandler : IDisposable
{
    public const string Endpoint = "inproc://zeromq.zap.01";

    private readonly IEnd _rep;
    private readonly Func<byte[][], ZapAnswer> _decide;
    private readonly List<byte[][]> _requests = [];
    private readonly Thread _thread;
    private volatile bool _stop;
    private Exception? _failure;

    public ZapHandler(IEnd rep, Func<byte[][], ZapAnswer> decide)
    {
        _rep = rep;
        _decide = decide;
        _rep.Bind(Endpoint);
        _thread = new Thread(Serve) { IsBackground = true, Name = $"ZAP handler ({rep.Name})" };
        _thread.Start();
    }

    private void Serve()
    {
        try
        {
            while (!_stop)
            {
                var request = _rep.TryRecvMessage(Timeouts.Probe);
                if (request is null)
                    continue;
                var answer = _decide(request);
                var requestId = request.Length > 1 ? request[1] : [];
                _rep.SendMessage(Bytes.Of("1.0"), requestId, Bytes.Of(answer.Status),
                    Bytes.Of(answer.Status == "200" ? "OK" : "denied"), Bytes.Of(answer.UserId), []);
                lock (_requests)
                {
                    _requests.Add(request);
                    Monitor.PulseAll(_requests);
                }
            }
        }
        catch (Exception e) when (!_stop)
        {
            _failure = e;
        }
        catch (Exception)
        {
            // Stopping: the socket may go away under us.
        }
    }

    public int RequestCount
    {
        get
        {
            lock (_requests)
                return _requests.Count;
        }
    }

    /// <summary>The first request, waiting up to <see cref="Timeouts.Settle"/>.</summary>
    public byte[][] WaitForRequest()
    {
        var end = Environment.TickCount64 + (long)Timeouts.Settle.TotalMilliseconds;
        lock (_requests)
        {
            while (_requests.Count == 0)
            {
                Assert.True(_failure is null, $"ZAP handler failed: {_failure}");
                var left = end - Environment.TickCount64;
                Assert.True(left > 0, "The ZAP handler received no request.");
                Monitor.Wait(_requests, (int)left);
            }

            return _requests[0];
        }
    }

    public void Dispose()
    {
        _stop = true;
        _thread.Join(Timeouts.Io);
        _rep.Dispose();
    }

    /// <summary>What broke the handler thread, if anything (checked by <see cref="WaitForRequest"/>).</summary>
    public Exception? Failure => _failure;
}
