using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests.Infrastructure;

/// <summary>The errno of a call on either side, 0 for success: how the parity tests compare libzmq's outcome with ours.</summary>
internal static class Errno
{
    /// <summary>Ours: the <see cref="ZmqException.ErrorNumber"/> <paramref name="call"/> throws, or 0.</summary>
    public static int Of(Action call)
    {
        try
        {
            call();
            return 0;
        }
        catch (ZmqException e)
        {
            return e.ErrorNumber;
        }
    }

    /// <summary>libzmq's: 0 for a return code of 0, else <c>zmq_errno()</c>.</summary>
    public static int OfNative(int rc) => rc == 0 ? 0 : LibZmq.zmq_errno();
}
