using System.Diagnostics;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Api.Allocation;

/// <summary>
/// RADIO→DISH with groups keeps the promise of the other socket types: after warm-up, sending a Message with a group
/// and receiving into a reused Message allocate nothing per message (the group travels in a buffer each Message
/// keeps, and the DISH's group text is made again only when the group changes).
/// </summary>
public sealed class RadioDishAllocationTests
{
    private const int WarmUp = 2_000;
    private const int Messages = 10_000;

    /// <summary>Under 12 B a message proves there is no allocation per message (an object costs at least 24 B).</summary>
    private const long NothingPerMessage = Messages * 12L;

    [Theory]
    [TransportCases(Transport.Inproc, Transport.Tcp)]
    public void SendAndRecv_GroupedMessages_AllocateNothingPerMessage(Transport transport)
    {
        using var context = new Context();
        using var radio = new Socket(context, SocketType.Radio);
        using var dish = new Socket(context, SocketType.Dish);
        radio.SetOption(SocketOption.Linger, 0);
        dish.SetOption(SocketOption.Rcvtimeo, 5000);
        radio.Bind(TestEndpoint.For(transport, "radio-alloc"));
        dish.Connect(radio.GetOptionString(SocketOption.Last_Endpoint));
        dish.Join("g");
        WaitUntilJoined(radio, dish);

        using var outgoing = new Message();
        using var incoming = new Message();
        int wrong = 0;

        // Lockstep on one thread: each message is sent, then received, so queues stay small and warm.
        void RoundTrip()
        {
            outgoing.Rebuild(64);
            outgoing.Group = "g";
            radio.Send(outgoing);
            dish.Recv(incoming);
            if (incoming.Size != 64 || incoming.Group.Length != 1)
            {
                wrong++;
            }
        }

        for (int i = 0; i < WarmUp; i++)
        {
            RoundTrip();
        }

        long before = GC.GetAllocatedBytesForCurrentThread();
        for (int i = 0; i < Messages; i++)
        {
            RoundTrip();
        }

        long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.Equal(0, wrong);
        Assert.True(allocated < NothingPerMessage, $"allocated {allocated} B over {Messages} messages");
    }

    private static void WaitUntilJoined(Socket radio, Socket dish)
    {
        dish.SetOption(SocketOption.Rcvtimeo, 20);
        var clock = Stopwatch.StartNew();
        using var probe = new Message();
        while (clock.ElapsedMilliseconds < 5000)
        {
            probe.Rebuild(64);
            probe.Group = "g";
            radio.Send(probe);
            try
            {
                dish.Recv(probe);
                dish.SetOption(SocketOption.Rcvtimeo, 5000);
                DrainQueued(dish);
                return;
            }
            catch (ZmqException ex) when (ex.ErrorNumber == ZmqConstants.EAGAIN)
            {
            }
        }

        Assert.Fail("no message reached the dish within 5000 ms");
    }

    /// <summary>Probes sent before the first arrived may still come: take them, so the round trips start even.</summary>
    private static void DrainQueued(Socket dish)
    {
        using var message = new Message();
        while (dish.TryRecv(message, out _))
        {
        }
    }
}
