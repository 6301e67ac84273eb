using System.Net.Sockets;
using Managed.Zmq.Diagnostics;
using Managed.Zmq.Engine;
using Managed.Zmq.Threading;
using Managed.Zmq.Transports;

namespace Managed.Zmq.Endpoints;

/// <summary>Opening the listening socket: bind and listen (tcp, ipc), or adopt the caller's (Use_Fd).</summary>
internal sealed partial class Listener
{
    /// <summary>Binds and listens synchronously (Bind reports EADDRINUSE at once); returns 0 or an errno.</summary>
    public static int TryStart(IEndpointHost socket, TransportAddress address, out Listener? listener)
    {
        listener = null;
        var options = socket.Options;
        System.Net.Sockets.Socket? listenSocket = null;
        if (options.UseFd >= 0)
        {
            return TryStartOnCallerSocket(socket, address, options.UseFd, out listener);
        }

        try
        {
            var endPoint = address.GetBindEndPoint();
            listenSocket = address.CreateSocket(endPoint.AddressFamily);
            if (address is IpcAddress ipc && !ipc.IsAbstract)
            {
                // A stale file from a dead process must not block a new bind (libzmq replaces it).
                TryDeleteFile(ipc.Path);
            }

            if (endPoint.AddressFamily == AddressFamily.InterNetworkV6)
            {
                listenSocket.DualMode = options.Ipv6;
            }

            // tcp, ws and wss listen on a TCP socket, which libzmq opens alike: the device, then SO_REUSEADDR.
            bool overTcp = listenSocket.AddressFamily is AddressFamily.InterNetwork or AddressFamily.InterNetworkV6;
            int deviceError = overTcp ? SocketTuning.BindToDevice(listenSocket, options) : 0;
            if (deviceError != 0)
            {
                listenSocket.Dispose();
                return deviceError;
            }

            if (overTcp)
            {
                SocketTuning.SetReuseAddress(listenSocket);
            }

            // Before listen: the connections it accepts take their buffers and TOS from it in the handshake.
            SocketTuning.ApplyListening(listenSocket, options);
            DescriptorReserve.TryFill();
            listenSocket.Bind(endPoint);
            listenSocket.Listen(Math.Max(1, options.Backlog));
            string resolved = address.FormatBound(listenSocket.LocalEndPoint!);
            listener = Launch(socket, address, listenSocket, resolved, callerSocket: false);
            return 0;
        }
        catch (SocketException ex)
        {
            listenSocket?.Dispose();
            return ex.SocketErrorCode switch
            {
                SocketError.AddressAlreadyInUse => ZmqConstants.EADDRINUSE,
                SocketError.AddressNotAvailable => ZmqConstants.EADDRNOTAVAIL,
                SocketError.AccessDenied => ZmqConstants.EACCES,
                SocketError.NoBufferSpaceAvailable => ZmqConstants.ENOBUFS,
                _ => ZmqConstants.EINVAL,
            };
        }
    }

    /// <summary>Makes the listener of a bound, listening socket and starts accepting on its I/O thread.</summary>
    private static Listener Launch(IEndpointHost socket, TransportAddress address, System.Net.Sockets.Socket listenSocket, string resolved, bool callerSocket)
    {
        var listener = new Listener(socket, address, listenSocket, socket.NextIoThread(), resolved) { _callerSocket = callerSocket };
        listenSocket.Blocking = false;
        listener._ioThread.Schedule(static s => ((Listener)s!).WatchAccept(), listener);
        return listener;
    }

    /// <summary>
    /// Use_Fd: listens on a socket the caller already bound and put in the listening state (libzmq uses it
    /// instead of creating one, for socket activation). The caller keeps the descriptor: we never close it.
    /// Last_Endpoint is what the socket is bound to, as libzmq reads it back.
    /// </summary>
    private static int TryStartOnCallerSocket(IEndpointHost socket, TransportAddress address, int fd, out Listener? listener)
    {
        listener = null;
        System.Net.Sockets.Socket listenSocket;
        try
        {
            listenSocket = new System.Net.Sockets.Socket(new SafeSocketHandle(fd, ownsHandle: false));
        }
        catch (SocketException)
        {
            return ZmqConstants.EINVAL;
        }

        try
        {
            string resolved = address.FormatBound(listenSocket.LocalEndPoint!);
            listener = Launch(socket, address, listenSocket, resolved, callerSocket: true);
            return 0;
        }
        catch (Exception ex) when (ex is SocketException or InvalidCastException or NullReferenceException)
        {
            // Not a bound socket of this endpoint's family.
            listenSocket.Dispose();
            return ZmqConstants.EINVAL;
        }
    }
}
