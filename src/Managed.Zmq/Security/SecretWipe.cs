using System.Runtime.CompilerServices;
using System.Security.Cryptography;

namespace Managed.Zmq.Security;

/// <summary>
/// Zeroes secrets that per-connection code holds (keys, PLAIN passwords) once they are no longer needed.
/// </summary>
/// <remarks>
/// The connection and mechanism code that calls this runs for every connection, NULL ones too.
/// Referencing <see cref="CryptographicOperations"/> from that code would load
/// System.Security.Cryptography (over a megabyte resident) as soon as it is compiled, in a process
/// that never uses a secret. So the reference lives in a method of its own, never inlined, that is
/// compiled only when there is something to wipe.
/// </remarks>
internal static class SecretWipe
{
    /// <summary>Zeroes <paramref name="secret"/> in a way the compiler may not elide; nothing for an empty one.</summary>
    public static void Wipe(byte[] secret)
    {
        if (secret.Length != 0)
        {
            Zero(secret);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void Zero(byte[] secret) => CryptographicOperations.ZeroMemory(secret);
}
