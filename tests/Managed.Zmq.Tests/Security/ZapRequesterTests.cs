using Managed.Zmq.Security.Zap;
using Managed.Zmq.Threading;

namespace Managed.Zmq.Tests.Security;

/// <summary>
/// The ZAP requester against a fake <see cref="IZapEndpoint"/>: Security talks to the handler through
/// its own seam, so the exchange is tested with no socket at all.
/// </summary>
public sealed class ZapRequesterTests
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(10);

    [Fact]
    public async Task ExchangeAsync_HandlerReplies_SendsDelimiterThenRequestAndReturnsReply()
    {
        using var thread = new IoThread("zap-requester-test");
        var endpoint = new FakeEndpoint(reply: [[], [1], [2, 3]]);
        var requester = new ZapRequester(endpoint, thread);

        var reply = await RunOnAsync(thread, () => requester.ExchangeAsync([[10], [11, 12]]));

        Assert.NotNull(reply);
        Assert.Equal(new byte[][] { [], [1], [2, 3] }, reply);
        FakeChannel channel = Assert.Single(endpoint.Opened);
        Assert.Equal(new byte[][] { [], [10], [11, 12] }, channel.Sent.Select(s => s.Frame));
        Assert.Equal([true, true, false], channel.Sent.Select(s => s.More));
        Assert.True(channel.Disposed);
    }

    [Fact]
    public async Task ExchangeAsync_AbandonedWhileWaiting_ReturnsNullAndClosesTheChannel()
    {
        using var thread = new IoThread("zap-requester-test");
        var endpoint = new FakeEndpoint(reply: null);
        var requester = new ZapRequester(endpoint, thread);
        endpoint.OnWouldBlock = requester.Abandon;

        var reply = await RunOnAsync(thread, () => requester.ExchangeAsync([[10]]));

        Assert.Null(reply);
        Assert.True(Assert.Single(endpoint.Opened).Disposed);
    }

    [Fact]
    public async Task ExchangeAsync_AfterAbandon_OpensNoChannel()
    {
        using var thread = new IoThread("zap-requester-test");
        var endpoint = new FakeEndpoint(reply: [[]]);
        var requester = new ZapRequester(endpoint, thread);

        var reply = await RunOnAsync(thread, () =>
        {
            requester.Abandon();
            return requester.ExchangeAsync([[10]]);
        });

        Assert.Null(reply);
        Assert.Empty(endpoint.Opened);
    }

    /// <summary>Starts <paramref name="exchange"/> on the I/O thread, as a handshake does, and waits for its result.</summary>
    private static async Task<IReadOnlyList<byte[]>?> RunOnAsync(IoThread thread, Func<ValueTask<IReadOnlyList<byte[]>?>> exchange)
    {
        var result = new TaskCompletionSource<IReadOnlyList<byte[]>?>(TaskCreationOptions.RunContinuationsAsynchronously);
        thread.Schedule(async _ =>
        {
            try
            {
                result.SetResult(await exchange().ConfigureAwait(true));
            }
            catch (Exception ex)
            {
                result.SetException(ex);
            }
        }, null);
        return await result.Task.WaitAsync(Timeout);
    }

    private sealed class FakeEndpoint(byte[][]? reply) : IZapEndpoint
    {
        public List<FakeChannel> Opened { get; } = [];

        /// <summary>Runs when the requester first finds no reply (it is about to wait).</summary>
        public Action? OnWouldBlock { get; set; }

        public bool IsHandlerBound => true;

        public IZapChannel Open(Action onChange)
        {
            var channel = new FakeChannel(reply, onChange, () => OnWouldBlock?.Invoke());
            Opened.Add(channel);
            return channel;
        }
    }

    /// <summary>
    /// Has nothing to read at first; the reply (null: none) arrives just after the requester found
    /// nothing, announced through <c>onChange</c> as the DEALER's signal would, so the requester waits.
    /// </summary>
    private sealed class FakeChannel(byte[][]? reply, Action onChange, Action onWouldBlock) : IZapChannel
    {
        private int _next = -1;

        public List<(byte[] Frame, bool More)> Sent { get; } = [];

        public bool Disposed { get; private set; }

        public bool TrySend(ReadOnlySpan<byte> frame, bool more)
        {
            Sent.Add((frame.ToArray(), more));
            return true;
        }

        public ZapReceive TryReceive(out byte[] frame, out bool more)
        {
            if (reply is null || _next < 0 || _next >= reply.Length)
            {
                if (_next < 0)
                {
                    _next = 0;
                    onWouldBlock();
                    if (reply is not null)
                    {
                        onChange();
                    }
                }

                frame = [];
                more = false;
                return ZapReceive.WouldBlock;
            }

            frame = reply[_next++];
            more = _next < reply.Length;
            return ZapReceive.Received;
        }

        public void Dispose() => Disposed = true;
    }
}
