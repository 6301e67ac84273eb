namespace Managed.Zmq.Threading;

/// <summary>
/// How an <see cref="IoThread"/> splits its sockets between its own Select set ("hot": busy
/// connections, served inline with no thread hop) and the runtime's socket engine ("parked": idle
/// connections, which then cost nothing per wake-up).
/// </summary>
internal static class ReactorPolicy
{
    /// <summary>
    /// Milliseconds a socket may wait for input in the Select set before it is parked. A connection
    /// with traffic at least this often never leaves the Select set, so it keeps the inline path;
    /// one that is quieter pays one thread-pool hop on its next input, which is small beside a gap
    /// this long. Shorter keeps the Select set smaller under many moderately quiet connections;
    /// longer keeps more of them on the inline path. Heartbeats (seconds apart) park in between.
    /// </summary>
    public const int ParkDelayMilliseconds = 20;

    /// <summary>
    /// Quiet readers are parked only while more than this many wait in Select. A park's wake-up
    /// comes through the thread pool, so an application that blocks thread-pool threads would delay
    /// it; below this count a Select over every socket costs next to nothing, and a process with a
    /// handful of connections keeps depending on nothing but its I/O threads. The cap still parks.
    /// </summary>
    public const int ParkAboveReaders = 16;

    /// <summary>
    /// The least a Select waits for the next park deadline: parking is batched, so a reactor with
    /// many quiet sockets that drift towards their deadlines wakes a bounded number of times per
    /// <see cref="ParkDelayMilliseconds"/>, not once per socket.
    /// </summary>
    public const int ParkCheckMinimumMilliseconds = 5;

    /// <summary>
    /// The most sockets one Select watches (read and write waits together, plus listeners). Past it
    /// the longest-waiting readers are parked at once. This bounds the cost of a wake-up however
    /// many connections are busy, and keeps far below the 65,536 sockets Select refuses.
    /// </summary>
    public const int MaxSelectSet = 1024;

    /// <summary>
    /// When more sockets wait for writability than <see cref="MaxSelectSet"/> (writes cannot be
    /// parked), Select watches them in turns and wakes at least this often to rotate, so none waits
    /// for long behind the others.
    /// </summary>
    public const int WriteRotationMilliseconds = 1;
}
