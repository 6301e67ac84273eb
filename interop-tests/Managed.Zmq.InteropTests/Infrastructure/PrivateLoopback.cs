namespace Managed.Zmq.InteropTests.Infrastructure;

/// <summary>
/// A loopback address of this test process's own (127.a.b.c, not 127.0.0.1). The test projects run side by side
/// and bind ephemeral ports on 127.0.0.1; a socket in another process that keeps reconnecting to a port its test
/// released reaches whoever binds that port next. A listener on a private loopback address cannot be reached that
/// way, which matters to the scenarios that count their peers' connections. A connection to it still comes from
/// 127.0.0.1 (the lo route's source address), so what a server sees of its peer does not change.
/// </summary>
internal static class PrivateLoopback
{
    /// <summary>The address, chosen once per process.</summary>
    public static readonly string Address = Choose();

    /// <summary><c>tcp://</c> on <see cref="Address"/> with an ephemeral port, for <see cref="IEnd.Bind"/>.</summary>
    public static string EphemeralTcp => $"tcp://{Address}:*";

    private static string Choose()
    {
        // 127.0.0.0/8 is all loopback on Linux; avoid 127.0.0.x so no conventional address is taken.
        var random = Random.Shared;
        return $"127.{random.Next(1, 255)}.{random.Next(0, 256)}.{random.Next(1, 255)}";
    }
}
