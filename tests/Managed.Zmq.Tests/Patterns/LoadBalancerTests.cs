using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using Managed.Zmq.Inproc;
using Managed.Zmq.Patterns;
using Managed.Zmq.Pipes;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Patterns;

/// <summary>
/// Round-robin send (RFC 28 §The DEALER Socket Type, RFC 30 §The PUSH Socket Type) over in-memory pipes:
/// no socket, context or I/O thread; each test reads what its peers received from the other end of
/// their inproc pipes.
/// </summary>
public sealed class LoadBalancerTests
{
    private readonly FakePipeOwner _owner = new();
    private readonly FakePipeOwner _peerOwner = new();

    [Fact]
    public void Send_SeveralPipes_TakesThemInTurn()
    {
        var balancer = new LoadBalancer();
        var peers = AddPeers(balancer, 3, sendHwm: 0);

        for (byte i = 0; i < 6; i++)
        {
            Assert.Equal(SendStatus.Sent, balancer.Send(new OutboundFrame([i], more: false)));
        }

        Assert.Equal([[0], [3]], ReadMessages(peers[0]).Select(m => m[0]));
        Assert.Equal([[1], [4]], ReadMessages(peers[1]).Select(m => m[0]));
        Assert.Equal([[2], [5]], ReadMessages(peers[2]).Select(m => m[0]));
    }

    [Fact]
    public void Send_MultipartMessage_StaysOnThePipeOfItsFirstFrame()
    {
        var balancer = new LoadBalancer();
        var peers = AddPeers(balancer, 2, sendHwm: 0);

        balancer.Send(new OutboundFrame([1], more: true));
        balancer.Send(new OutboundFrame([2], more: true));
        balancer.Send(new OutboundFrame([3], more: false));
        balancer.Send(new OutboundFrame([4], more: false));

        var first = Assert.Single(ReadMessages(peers[0]));
        Assert.Equal([[1], [2], [3]], first);
        Assert.Equal([[4]], Assert.Single(ReadMessages(peers[1])));
    }

    [Fact]
    public void Send_PipeAtHwm_IsSkipped()
    {
        var balancer = new LoadBalancer();
        var peers = AddPeers(balancer, 2, sendHwm: 1);

        balancer.Send(new OutboundFrame([1], more: false));
        balancer.Send(new OutboundFrame([2], more: false));

        // Both pipes are full now; once the first peer reads, only it has room.
        Assert.False(balancer.CanSend);
        Assert.Single(ReadMessages(peers[0]));
        Assert.True(balancer.CanSend);
        balancer.Send(new OutboundFrame([3], more: false));

        Assert.Equal([[3]], Assert.Single(ReadMessages(peers[0])));
        Assert.Equal([[2]], Assert.Single(ReadMessages(peers[1])));
    }

    [Fact]
    public void Send_EveryPipeFull_WouldBlock()
    {
        var balancer = new LoadBalancer();
        AddPeers(balancer, 2, sendHwm: 1);
        balancer.Send(new OutboundFrame([1], more: false));
        balancer.Send(new OutboundFrame([2], more: false));

        Assert.Equal(SendStatus.WouldBlock, balancer.Send(new OutboundFrame([3], more: false)));
        Assert.False(balancer.CanSend);
    }

    [Fact]
    public void Send_NoPipes_WouldBlock()
    {
        var balancer = new LoadBalancer();

        Assert.Equal(SendStatus.WouldBlock, balancer.Send(new OutboundFrame([1], more: false)));
        Assert.False(balancer.CanSend);
    }

    [Fact]
    public void Send_PipeRemovedMidMessage_DropsTheRestAndMovesOn()
    {
        var balancer = new LoadBalancer();
        var peers = AddPeers(balancer, 2, sendHwm: 0);
        balancer.Send(new OutboundFrame([1], more: true));
        var chosen = balancer.LastPipe!;

        balancer.Remove(chosen);

        // The rest of the message is never sent elsewhere, and the next message goes to the pipe left.
        Assert.Equal(SendStatus.Sent, balancer.Send(new OutboundFrame([2], more: false)));
        Assert.Equal(SendStatus.Sent, balancer.Send(new OutboundFrame([3], more: false)));
        var remaining = peers.Single(p => p.Peer != chosen);
        Assert.Equal([[3]], Assert.Single(ReadMessages(remaining)));
    }

    [Fact]
    public void Send_FrameWithPayload_TravelsByReference()
    {
        var payloads = new TaggedPayloads();
        var payload = payloads.Create(42);
        var balancer = new LoadBalancer();
        var peer = AddPeers(balancer, 1, sendHwm: 0)[0];

        balancer.Send(new OutboundFrame(payload.Span, payload, more: false));
        payload.Release();

        // The pipe took its own reference: the bytes are still there, read where the sender left them.
        Assert.Empty(payloads.Released);
        Assert.True(peer.TryPeekFrame(out var frame));
        Assert.True(Unsafe.AreSame(ref MemoryMarshal.GetReference(frame.Body), ref MemoryMarshal.GetReference(payload.Span)));
        peer.ConsumeFrame(frame);
        Assert.Equal([42], payloads.Released);
    }

    /// <summary>Adds <paramref name="count"/> inproc pipes to <paramref name="balancer"/>; returns the peers' ends.</summary>
    private InprocPipe[] AddPeers(LoadBalancer balancer, int count, int sendHwm)
    {
        var peers = new InprocPipe[count];
        for (int i = 0; i < count; i++)
        {
            var toPeer = new InprocChannel();
            var fromPeer = new InprocChannel();
            var mine = new InprocPipe(_owner, sendHwm, receiveHwm: 0, fromConnect: true, toPeer, fromPeer);
            var theirs = new InprocPipe(_peerOwner, sendHwm: 0, receiveHwm: 0, fromConnect: false, fromPeer, toPeer);
            mine.Peer = theirs;
            theirs.Peer = mine;
            balancer.Add(mine);
            peers[i] = theirs;
        }

        return peers;
    }

    /// <summary>Every whole message queued for <paramref name="peer"/>, frame by frame.</summary>
    private static List<List<byte[]>> ReadMessages(InprocPipe peer)
    {
        var messages = new List<List<byte[]>>();
        var current = new List<byte[]>();
        while (peer.TryPeekFrame(out var frame))
        {
            current.Add(frame.Body.ToArray());
            bool more = frame.More;
            peer.ConsumeFrame(frame);
            if (!more)
            {
                messages.Add(current);
                current = [];
            }
        }

        Assert.Empty(current);
        return messages;
    }
}
