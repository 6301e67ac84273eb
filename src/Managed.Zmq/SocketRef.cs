using Managed.Zmq.Buffers;
using Managed.Zmq.Options;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq;

/// <summary>A non-owning identity token for a socket.</summary>
/// <remarks>
/// It holds an opaque id and nothing else: it neither keeps a socket alive nor looks one up. Two refs are equal exactly
/// when their ids are equal, and <c>default(SocketRef)</c> is not valid.
/// </remarks>
public readonly struct SocketRef : IEquatable<SocketRef>
{
    private readonly nint _handle;

    private SocketRef(nint handle) => _handle = handle;

    /// <summary>Gets a value indicating whether the ref carries an id (a non-zero handle).</summary>
    public bool IsValid => _handle != 0;

    /// <summary>Gets the opaque id, for the library's own lookups.</summary>
    internal nint Handle => _handle;

    /// <summary>Wraps <paramref name="handle"/> as an opaque id; no socket is looked up.</summary>
    /// <param name="handle">The id; 0 gives an invalid ref.</param>
    /// <returns>A ref carrying <paramref name="handle"/>.</returns>
    public static SocketRef FromHandle(nint handle) => new(handle);

    /// <summary>Determines whether <paramref name="other"/> carries the same id.</summary>
    /// <param name="other">The ref to compare with.</param>
    /// <returns><see langword="true"/> if both ids are equal.</returns>
    public bool Equals(SocketRef other) => _handle == other._handle;

    /// <summary>Determines whether <paramref name="obj"/> is a <see cref="SocketRef"/> with the same id.</summary>
    /// <param name="obj">The object to compare with.</param>
    /// <returns><see langword="true"/> if <paramref name="obj"/> is an equal <see cref="SocketRef"/>.</returns>
    public override bool Equals(object? obj) => obj is SocketRef other && Equals(other);

    /// <summary>Returns a hash code derived from the id.</summary>
    /// <returns>The hash code.</returns>
    public override int GetHashCode() => _handle.GetHashCode();

    /// <summary>Determines whether two refs carry the same id.</summary>
    /// <param name="left">The first ref.</param>
    /// <param name="right">The second ref.</param>
    /// <returns><see langword="true"/> if the ids are equal.</returns>
    public static bool operator ==(SocketRef left, SocketRef right) => left.Equals(right);

    /// <summary>Determines whether two refs carry different ids.</summary>
    /// <param name="left">The first ref.</param>
    /// <param name="right">The second ref.</param>
    /// <returns><see langword="true"/> if the ids differ.</returns>
    public static bool operator !=(SocketRef left, SocketRef right) => !left.Equals(right);
}
