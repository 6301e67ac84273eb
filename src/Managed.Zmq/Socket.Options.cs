using System.Runtime.CompilerServices;
using System.Text;
using Managed.Zmq.Internal;
using Managed.Zmq.Buffers;
using Managed.Zmq.Endpoints;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq;

public sealed partial class Socket
{
    /// <summary>Reads an option as <c>int</c>, <c>long</c>, <c>nint</c> or <c>bool</c>; the width must match the option's.</summary>
    /// <typeparam name="T">int, long, nint or bool.</typeparam>
    /// <param name="option">The option.</param>
    /// <returns>The value.</returns>
    public T GetOption<T>(SocketOption option)
        where T : struct
    {
        ThrowIfDisposed();
        if (typeof(T) == typeof(bool))
        {
            bool value = GetOptionInt32(option) != 0;
            return Unsafe.As<bool, T>(ref value);
        }

        if (typeof(T) != typeof(int) && typeof(T) != typeof(long) && typeof(T) != typeof(nint))
        {
            ThrowHelper.ThrowArgumentException($"Unsupported type: {typeof(T)}");
        }

        Span<byte> buffer = stackalloc byte[8];
        buffer = buffer[..Unsafe.SizeOf<T>()];
        buffer.Clear();
        int error = GetOptionRaw(option, buffer, out _);
        if (error != 0)
        {
            ThrowHelper.ThrowZmqException(error);
        }

        return Unsafe.ReadUnaligned<T>(ref buffer[0]);
    }

    /// <summary>Reads an option's raw value into <paramref name="buffer"/>, as zmq_getsockopt does.</summary>
    /// <param name="option">The option.</param>
    /// <param name="buffer">Destination; string values include their terminating NUL.</param>
    /// <returns>The number of bytes written.</returns>
    public int GetOption(SocketOption option, byte[] buffer)
    {
        ArgumentNullException.ThrowIfNull(buffer);
        ThrowIfDisposed();
        int error = GetOptionRaw(option, buffer, out int length);
        if (error != 0)
        {
            ThrowHelper.ThrowZmqException(error);
        }

        return length;
    }

    /// <summary>Reads a text option (UTF-8, without its NUL), e.g. <c>Last_Endpoint</c>.</summary>
    /// <param name="option">The option.</param>
    /// <returns>The text.</returns>
    public string GetOptionString(SocketOption option)
    {
        ThrowIfDisposed();
        Span<byte> buffer = stackalloc byte[256];
        int error = GetOptionRaw(option, buffer, out int length);
        if (error != 0)
        {
            ThrowHelper.ThrowZmqException(error);
        }

        return length <= 1 ? string.Empty : Encoding.UTF8.GetString(buffer[..(length - 1)]);
    }

    /// <summary>Sets a 4-byte option.</summary>
    /// <param name="option">The option.</param>
    /// <param name="value">The value.</param>
    public void SetOption(SocketOption option, int value)
    {
        Span<byte> bytes = stackalloc byte[4];
        OptionValue.WriteInt32(bytes, value);
        SetOptionRaw(option, bytes);
    }

    /// <summary>Sets an 8-byte option (Affinity, Maxmsgsize).</summary>
    /// <param name="option">The option.</param>
    /// <param name="value">The value.</param>
    public void SetOption(SocketOption option, long value)
    {
        Span<byte> bytes = stackalloc byte[8];
        OptionValue.WriteInt64(bytes, value);
        SetOptionRaw(option, bytes);
    }

    /// <summary>Sets a 4-byte option to 1 or 0.</summary>
    /// <param name="option">The option.</param>
    /// <param name="value">The value.</param>
    public void SetOption(SocketOption option, bool value) => SetOption(option, value ? 1 : 0);

    /// <summary>Sets a binary option (Routing_Id, Subscribe, CURVE keys...).</summary>
    /// <param name="option">The option.</param>
    /// <param name="value">The bytes; may be empty.</param>
    public void SetOption(SocketOption option, byte[] value)
    {
        ArgumentNullException.ThrowIfNull(value);
        SetOptionRaw(option, value);
    }

    /// <summary>Sets a text option (UTF-8, no NUL); CURVE keys may be given as 40-character Z85 text.</summary>
    /// <param name="option">The option.</param>
    /// <param name="value">The text.</param>
    public void SetOption(SocketOption option, string value)
    {
        ArgumentNullException.ThrowIfNull(value);
        SetOptionRaw(option, Encoding.UTF8.GetBytes(value));
    }

    private void SetOptionRaw(SocketOption option, ReadOnlySpan<byte> value)
    {
        ThrowIfDisposed();
        using (_core.EnterGate())
        {
            ThrowIfClosedUnderGate();
            ThrowIfTerminated();
            SetOptionUnderGate(option, value);
        }
    }

    private void SetOptionUnderGate(SocketOption option, ReadOnlySpan<byte> value)
    {
        _core.ProcessEvents();
        int error = _core.Options.TrySet((int)option, value);
        if (error == OptionStatus.HandledBySocket)
        {
            // Subscribe (6) and Unsubscribe (7): the pattern acts on them.
            error = _core.Pattern.Subscribe(value, subscribe: (int)option == OptionId.Subscribe);
        }
        else if (error == 0 && (int)option == OptionId.RouterRaw)
        {
            error = _core.ApplyRouterRaw();
        }
        else if (error == 0 && (int)option == OptionId.MaxConnections)
        {
            // A raised cap lets listeners waiting at the old one accept now, not at the next close.
            _core.AcceptQuota.WakeWaiting();
        }

        if (error != 0)
        {
            ThrowHelper.ThrowZmqException(error);
        }
    }

    private int GetOptionInt32(SocketOption option)
    {
        Span<byte> buffer = stackalloc byte[4];
        int error = GetOptionRaw(option, buffer, out _);
        if (error != 0)
        {
            ThrowHelper.ThrowZmqException(error);
        }

        return OptionValue.ReadInt32(buffer);
    }

    private int GetOptionRaw(SocketOption option, Span<byte> buffer, out int length)
    {
        // A thread-safe type: another thread may be writing an option (or Last_Endpoint) meanwhile.
        using (_core.EnterGate())
        {
            if (_core.IsTerminated)
            {
                // As libzmq, once the socket has seen its context's shutdown: only Dispose still works.
                length = 0;
                return ZmqConstants.ETERM;
            }

            return GetOptionUnderGate(option, buffer, out length);
        }
    }

    private int GetOptionUnderGate(SocketOption option, Span<byte> buffer, out int length)
    {
        int error = _core.Options.TryGet((int)option, buffer, out length);
        if (error != OptionStatus.HandledBySocket)
        {
            return error;
        }

        switch ((int)option)
        {
            case OptionId.ReceiveMore:
                return OptionValue.TryWriteInt32Widened(buffer, _core.ReceiveMore ? 1 : 0, out length);
            case OptionId.Events:
                return OptionValue.TryWriteInt32Widened(buffer, (int)_core.Events, out length);
            case OptionId.Fd:
                if (SocketTypeFacts.IsThreadSafe(_core.SocketType))
                {
                    // libzmq's thread-safe sockets have no descriptor to poll (they are polled through zmq_poller, here Poller).
                    length = 0;
                    return ZmqConstants.EINVAL;
                }

                // An opaque, stable, non-zero value: there is no OS handle to poll (as in Net.Zmq).
                return OptionValue.TryWriteInt32Widened(buffer, (int)_id, out length);
            case OptionId.LastEndpoint:
                return OptionValue.TryWriteString(buffer, _core.LastEndpoint, out length);
            default:
                length = 0;
                return ZmqConstants.EINVAL;
        }
    }
}
