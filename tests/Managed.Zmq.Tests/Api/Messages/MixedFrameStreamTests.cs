using System.Runtime.InteropServices;
using Managed.Zmq.Tests.Support;

namespace Managed.Zmq.Tests.Api.Messages;

/// <summary>
/// A long stream of multipart messages whose frames mix every way of sending (span, own Message, pooled Message,
/// zero-copy Message) and every size class (empty, small, around the chunk and large-frame thresholds, above them),
/// sent from one thread while another receives: every byte arrives, in order, with its MORE flags, and every
/// zero-copy callback runs once. inproc copies small frames into its chunks and passes large ones by reference, so
/// this crosses chunk ends, payload frames and message boundaries in every combination.
/// </summary>
public sealed unsafe class MixedFrameStreamTests
{
    private const int Messages = 3_000;

    private static readonly int[] Sizes = [0, 1, 63, 64, 500, 1000, 1017, 1024, 4000, 20_000, 32_767, 32_768, 40_000, 70_000];

    [Theory]
    [TransportCases]
    public void Send_MixedFramesAndWaysFromAnotherThread_ArriveIntactInOrder(Transport transport)
    {
        using var pair = new PushPullPair(transport, "mixed");
        int callbacks = 0;
        int zeroCopies = 0;
        Action<nint> free = data =>
        {
            Interlocked.Increment(ref callbacks);
            NativeMemory.Free((void*)data);
        };

        Exception? failure = null;
        var sender = new Thread(() =>
        {
            try
            {
                var random = new Random(1234);
                for (int m = 0; m < Messages; m++)
                {
                    int frames = 1 + random.Next(4);
                    for (int f = 0; f < frames; f++)
                    {
                        int size = Sizes[random.Next(Sizes.Length)];
                        var flags = f < frames - 1 ? SendFlags.SendMore : SendFlags.None;
                        SendFrame(pair.Push, random.Next(4), Pattern(m, f, size), flags, free, ref zeroCopies);
                    }
                }
            }
            catch (Exception ex)
            {
                failure = ex;
            }
        });
        sender.Start();

        var expected = new Random(1234);
        using var incoming = new Message();
        for (int m = 0; m < Messages; m++)
        {
            int frames = 1 + expected.Next(4);
            for (int f = 0; f < frames; f++)
            {
                int size = Sizes[expected.Next(Sizes.Length)];
                expected.Next(4);
                Assert.Equal(size, pair.Pull.Recv(incoming));
                Assert.True(incoming.Data.SequenceEqual(Pattern(m, f, size)), $"message {m} frame {f} ({size} B) differs");
                Assert.Equal(f < frames - 1, incoming.More);
            }
        }

        Assert.True(sender.Join(TimeSpan.FromSeconds(30)));
        Assert.Null(failure);
        Assert.True(SpinWait.SpinUntil(() => Volatile.Read(ref callbacks) == Volatile.Read(ref zeroCopies), TimeSpan.FromSeconds(10)));
    }

    private static void SendFrame(Socket socket, int way, byte[] body, SendFlags flags, Action<nint> free, ref int zeroCopies)
    {
        switch (way)
        {
            case 0:
                socket.Send(body, flags);
                break;
            case 1:
            {
                using var message = new Message(body);
                socket.Send(message, flags);
                break;
            }

            case 2:
            {
                using var message = MessagePool.Shared.Rent(body);
                socket.Send(message, flags);
                break;
            }

            default:
            {
                var memory = (byte*)NativeMemory.Alloc((nuint)Math.Max(body.Length, 1));
                body.CopyTo(new Span<byte>(memory, body.Length));
                zeroCopies++;
                using var message = new Message((nint)memory, body.Length, free);
                socket.Send(message, flags);
                break;
            }
        }
    }

    /// <summary>Bytes that depend on the message, the frame and the position, so a frame out of place shows.</summary>
    private static byte[] Pattern(int message, int frame, int size)
    {
        var bytes = new byte[size];
        for (int i = 0; i < size; i++)
        {
            bytes[i] = (byte)((message * 31) + (frame * 7) + i);
        }

        return bytes;
    }
}
