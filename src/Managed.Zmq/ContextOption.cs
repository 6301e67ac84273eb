namespace Managed.Zmq;

/// <summary>Context options, numbered as libzmq numbers them.</summary>
/// <remarks>
/// <see cref="SocketLimit"/> and <see cref="ThreadPriority"/> share the value 3, as in libzmq: reading 3 returns the
/// socket limit and writing 3 sets the thread priority. libzmq's IPV6 (42) and BLOCKY (70) options have no name
/// here but work when cast.
/// </remarks>
public enum ContextOption
{
    /// <summary>Number of I/O worker threads.</summary>
    IoThreads = 1,

    /// <summary>Maximum number of sockets open at once in the context.</summary>
    /// <remarks>As in libzmq, the value in force is the one set when the context's first socket is created; later changes are read back but change no limit.</remarks>
    MaxSockets = 2,

    /// <summary>Largest value <see cref="MaxSockets"/> accepts (read-only).</summary>
    SocketLimit = 3,

    /// <summary>Scheduling priority of I/O threads (write-only; shares the value 3 with <see cref="SocketLimit"/>).</summary>
    ThreadPriority = 3,

    /// <summary>Scheduling policy of I/O threads.</summary>
    ThreadSchedPolicy = 4,

    /// <summary>Largest message size the context allows.</summary>
    MaxMsgSize = 5,

    /// <summary>Size of libzmq's <c>zmq_msg_t</c> structure, reported for compatibility.</summary>
    MsgTSize = 6,

    /// <summary>Adds a CPU to the I/O threads' affinity set.</summary>
    ThreadAffinityCpuAdd = 7,

    /// <summary>Removes a CPU from the I/O threads' affinity set.</summary>
    ThreadAffinityCpuRemove = 8,

    /// <summary>Numeric prefix of I/O thread names.</summary>
    /// <remarks>
    /// Once set, the I/O threads are named <c>"{prefix}/Managed.Zmq I/O {n}"</c> (libzmq's are <c>"{prefix}/ZMQbg/IO/{n}"</c>).
    /// Read when the I/O threads start, with the context's first connection or bind; Linux shows the first 15 bytes
    /// of a thread's name.
    /// </remarks>
    ThreadNamePrefix = 9,
}
