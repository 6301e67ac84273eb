using System.Net.Sockets;

namespace Managed.Zmq.Threading;

/// <summary>The I/O thread's parked sockets: quiet readers handed to the runtime's socket engine, and their wake-up.</summary>
internal sealed partial class IoThread
{
    // ------------------------------------------------------------ parking

    /// <summary>Hands a waiting reader to the runtime's socket engine; false when input is already there.</summary>
    private bool TryPark(Registration registration)
    {
        var args = registration.Park ??= new ParkArgs(this, registration);
        bool pending;
        try
        {
            // A zero-byte receive completes when input, an error or the end of the stream arrives
            // (the runtime peeks one byte where a plain zero-byte read would complete at once).
            pending = registration.Socket.ReceiveAsync(args);
        }
        catch (Exception ex) when (ex is ObjectDisposedException or SocketException or InvalidOperationException or NotSupportedException)
        {
            // Closed under us, or a socket the engine cannot wait on: let the handler look, and keep it in Select from now on.
            registration.MayPark = false;
            pending = false;
        }

        if (!pending)
        {
            return false;
        }

        registration.Parked = true;
        Volatile.Write(ref _parkedCount, _parkedCount + 1);
        UpdateHot(registration);
        return true;
    }

    /// <summary>A park's zero-byte receive finished: the socket has input, an error, or is at its end.</summary>
    private void OnParkCompleted(ParkArgs args)
    {
        var registration = args.Registration;
        registration.Parked = false;
        Volatile.Write(ref _parkedCount, _parkedCount - 1);
        if (registration.Forgotten)
        {
            args.Dispose();
            return;
        }

        if (args.SocketError is not (SocketError.Success or SocketError.WouldBlock or SocketError.OperationAborted or SocketError.Interrupted))
        {
            // Not every socket can be waited on this way (the handler still hears about real errors from its own receive).
            registration.MayPark = false;
        }

        if (!registration.WantsRead)
        {
            UpdateHot(registration);
            return;
        }

        registration.WantsRead = false;
        UpdateHot(registration);
        Invoke(registration, read: true);
    }


    /// <summary>The zero-byte receive of a parked socket; its completion is posted to the owning I/O thread.</summary>
    private sealed class ParkArgs : SocketAsyncEventArgs
    {
        public ParkArgs(IoThread owner, Registration registration)
            : base(unsafeSuppressExecutionContextFlow: true)
        {
            Owner = owner;
            Registration = registration;
            SetBuffer(Memory<byte>.Empty);
        }

        public IoThread Owner { get; }

        public Registration Registration { get; }

        protected override void OnCompleted(SocketAsyncEventArgs e) => Owner.Schedule(s_parkCompleted, this);
    }
}
