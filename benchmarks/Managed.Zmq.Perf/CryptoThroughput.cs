using System.Buffers.Binary;
using System.Diagnostics;
using System.Globalization;
using Managed.Zmq.Security.Crypto;

namespace Managed.Zmq.Perf;

/// <summary>
/// <c>crypto [milliseconds-per-case]</c>, the twin of benchmarks/native/crypto_thr.c (libsodium):
/// CURVE's per-message work in one thread, without sockets. For 64 B, 1 KiB and 64 KiB it times
/// what a connection does to seal and to open one MESSAGE, with the short nonce growing by one
/// each time: here a <see cref="ManagedMessageCipher"/> (stream key derived once per direction,
/// key stream of small messages made four nonces at a time), in libzmq crypto_box_afternm and
/// crypto_box_open_afternm. Then Poly1305 and the XSalsa20 stream
/// alone over 64 KiB, then one X25519 scalar multiplication (a handshake does four per
/// side). Each case runs for the given time (default 1000 ms) after a warm-up of a fifth of it and
/// prints one line: <c>case size ns/op MB/s</c>.
/// </summary>
internal static class CryptoThroughput
{
    public const string Name = "crypto";

    private static readonly int[] Sizes = [64, 1024, 65536];

    public static int Run(ReadOnlySpan<string> args)
    {
        int milliseconds = 1000;
        if (args.Length > 0 && (!int.TryParse(args[0], NumberStyles.None, CultureInfo.InvariantCulture, out milliseconds) || milliseconds < 1))
        {
            Console.Error.WriteLine("usage: crypto [milliseconds-per-case]");
            return 1;
        }

        byte[] key = new byte[XSalsa20Poly1305.KeySize];
        byte[] nonce = new byte[XSalsa20Poly1305.NonceSize];
        new Random(1).NextBytes(key);
        new Random(2).NextBytes(nonce);
        byte[] prefix = nonce[..16];
        byte[] shortNonce = new byte[8];
        ulong next = 0;

        foreach (int size in Sizes)
        {
            byte[] plaintext = new byte[size];
            byte[] box = new byte[size + XSalsa20Poly1305.Overhead];
            byte[] opened = new byte[size];
            using var sender = new ManagedMessageCipher(key, prefix);
            using var receiver = new ManagedMessageCipher(key, prefix);
            Report("seal", size, Time(milliseconds, () =>
            {
                BinaryPrimitives.WriteUInt64BigEndian(shortNonce, ++next);
                sender.Seal(shortNonce, plaintext, box);
            }));

            // Every open checks a real box: sealed under the nonce it is opened with.
            const int Boxes = 64;
            byte[][] boxes = new byte[Boxes][];
            for (int i = 0; i < Boxes; i++)
            {
                BinaryPrimitives.WriteUInt64BigEndian(shortNonce, (ulong)i + 1);
                boxes[i] = new byte[box.Length];
                sender.Seal(shortNonce, plaintext, boxes[i]);
            }

            ulong opens = 0;
            Report("open", size, Time(milliseconds, () =>
            {
                int i = (int)(opens++ % Boxes);
                BinaryPrimitives.WriteUInt64BigEndian(shortNonce, (ulong)i + 1);
                if (!receiver.Open(shortNonce, boxes[i], opened))
                {
                    throw new InvalidOperationException("a sealed box did not open");
                }
            }));
        }

        byte[] large = new byte[65536];
        new Random(4).NextBytes(large);
        byte[] tag = new byte[Poly1305.TagSize];
        Report("poly1305", large.Length, Time(milliseconds, () => Poly1305.Compute(key, large, tag)));
        Report("xsalsa20", large.Length, Time(milliseconds, () => Salsa20.XSalsa20Xor(key, nonce, 0, large, large)));

        byte[] secret = new byte[X25519.Size];
        byte[] point = new byte[X25519.Size];
        new Random(3).NextBytes(secret);
        X25519.ScalarMultBase(secret, point);
        Report("x25519", X25519.Size, Time(milliseconds, () => X25519.ScalarMult(secret, point, point)));
        Report("x25519-base", X25519.Size, Time(milliseconds, () =>
        {
            X25519.ScalarMultBase(secret, point);
            secret[0] ^= point[0];
        }));
        return 0;
    }

    /// <summary>Nanoseconds per call of <paramref name="operation"/>, run for about <paramref name="milliseconds"/>.</summary>
    private static double Time(int milliseconds, Action operation)
    {
        RunFor(Math.Max(1, milliseconds / 5), operation);
        (long calls, long ticks) = RunFor(milliseconds, operation);
        return ticks * (1e9 / Stopwatch.Frequency) / calls;
    }

    private static (long Calls, long Ticks) RunFor(int milliseconds, Action operation)
    {
        long budget = milliseconds * Stopwatch.Frequency / 1000;
        long start = Stopwatch.GetTimestamp();
        long calls = 0;
        long elapsed;
        do
        {
            for (int i = 0; i < 16; i++)
            {
                operation();
            }

            calls += 16;
            elapsed = Stopwatch.GetTimestamp() - start;
        }
        while (elapsed < budget);
        return (calls, elapsed);
    }

    private static void Report(string operation, int size, double nanoseconds)
    {
        double megabytesPerSecond = size / nanoseconds * 1000.0;
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{operation,-9} {size,6} {nanoseconds,12:F1} ns {megabytesPerSecond,9:F1} MB/s"));
    }
}
