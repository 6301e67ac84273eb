using System.Diagnostics.CodeAnalysis;
using System.Runtime.CompilerServices;

namespace Managed.Zmq.Internal;

/// <summary>
/// Throw sites kept out of hot methods: a call to a <c>[DoesNotReturn]</c> method is smaller than an inline
/// <c>throw new</c>, so callers stay inlinable and their fast path stays tight.
/// </summary>
/// <remarks>Partial so each layer can add its own helpers in a <c>ThrowHelper.Concern.cs</c> file.</remarks>
internal static partial class ThrowHelper
{
    /// <summary>Records <paramref name="errorNumber"/> as this thread's last error, then throws it.</summary>
    [DoesNotReturn]
    public static void ThrowZmqException(int errorNumber) => throw CreateZmqException(errorNumber);

    /// <summary>Records <paramref name="errorNumber"/> as this thread's last error, then throws it with a custom text.</summary>
    [DoesNotReturn]
    public static void ThrowZmqException(int errorNumber, string message) => throw CreateZmqException(errorNumber, message);

    /// <summary>Records <paramref name="errorNumber"/> and creates the exception for it.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static ZmqException CreateZmqException(int errorNumber)
    {
        LastError.Record(errorNumber);
        return new ZmqException(errorNumber);
    }

    /// <summary>Records <paramref name="errorNumber"/> and creates the exception for it with a custom text.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static ZmqException CreateZmqException(int errorNumber, string message)
    {
        LastError.Record(errorNumber);
        return new ZmqException(errorNumber, message);
    }

    /// <summary>Throws the IOE every content member of a disposed <c>Message</c> throws.</summary>
    [DoesNotReturn]
    public static void ThrowMessageNotInitialized() => throw CreateMessageNotInitialized();

    /// <summary>Creates the IOE "Message not initialized".</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static InvalidOperationException CreateMessageNotInitialized() => new("Message not initialized");

    /// <summary>Throws an <see cref="InvalidOperationException"/> with <paramref name="message"/>.</summary>
    [DoesNotReturn]
    public static void ThrowInvalidOperationException(string message) => throw CreateInvalidOperationException(message);

    /// <summary>Creates an <see cref="InvalidOperationException"/> with <paramref name="message"/>.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static InvalidOperationException CreateInvalidOperationException(string message) => new(message);

    /// <summary>Throws an <see cref="ArgumentNullException"/> for <paramref name="paramName"/>.</summary>
    [DoesNotReturn]
    public static void ThrowArgumentNullException(string paramName) => throw CreateArgumentNullException(paramName);

    /// <summary>Creates an <see cref="ArgumentNullException"/> for <paramref name="paramName"/>.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static ArgumentNullException CreateArgumentNullException(string paramName) => new(paramName);

    /// <summary>Throws an <see cref="ArgumentOutOfRangeException"/> for <paramref name="paramName"/>.</summary>
    [DoesNotReturn]
    public static void ThrowArgumentOutOfRangeException(string paramName, string message) =>
        throw CreateArgumentOutOfRangeException(paramName, message);

    /// <summary>Creates an <see cref="ArgumentOutOfRangeException"/> for <paramref name="paramName"/>.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static ArgumentOutOfRangeException CreateArgumentOutOfRangeException(string paramName, string message) =>
        new(paramName, message);

    /// <summary>Throws an <see cref="ArgumentException"/>; <paramref name="paramName"/> may be null.</summary>
    [DoesNotReturn]
    public static void ThrowArgumentException(string message, string? paramName = null) =>
        throw CreateArgumentException(message, paramName);

    /// <summary>Creates an <see cref="ArgumentException"/>; <paramref name="paramName"/> may be null.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static ArgumentException CreateArgumentException(string message, string? paramName) => new(message, paramName);

    /// <summary>Throws an <see cref="ObjectDisposedException"/> naming <paramref name="objectName"/>.</summary>
    [DoesNotReturn]
    public static void ThrowObjectDisposedException(string objectName) => throw CreateObjectDisposedException(objectName);

    /// <summary>Creates an <see cref="ObjectDisposedException"/> naming <paramref name="objectName"/>.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static ObjectDisposedException CreateObjectDisposedException(string objectName) => new(objectName);

    /// <summary>Throws the IOE of an empty <c>MultipartMessage</c>.</summary>
    [DoesNotReturn]
    public static void ThrowMultipartMessageEmpty() => throw CreateInvalidOperationException("Multipart message is empty");
}
