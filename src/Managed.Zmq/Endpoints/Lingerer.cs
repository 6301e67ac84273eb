using Managed.Zmq.Engine;
using Managed.Zmq.Pipes;

namespace Managed.Zmq.Endpoints;

/// <summary>Closes a connection the LINGER way: now, when drained, or when drained but at most N ms.</summary>
internal static class Lingerer
{
    public static void CloseConnection(ZmtpConnection connection, int lingerMilliseconds)
    {
        if (lingerMilliseconds == 0)
        {
            ((IPipeEngine)connection).Close();
            return;
        }

        connection.CloseWhenDrained(lingerMilliseconds);
    }
}
