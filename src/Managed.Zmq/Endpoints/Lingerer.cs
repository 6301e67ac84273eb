using Managed.Zmq.Engine;

namespace Managed.Zmq.Endpoints;

/// <summary>Closes a connection the LINGER way: now, when drained, or when drained but at most N ms.</summary>
internal static class Lingerer
{
    public static void CloseConnection(IConnection connection, int lingerMilliseconds)
    {
        if (lingerMilliseconds == 0)
        {
            connection.Close();
            return;
        }

        connection.CloseWhenDrained(lingerMilliseconds);
    }
}
