using System.Security.Cryptography;
using Managed.Zmq.Internal;
using Managed.Zmq.Security.Crypto;

namespace Managed.Zmq;

/// <summary>CURVE key helpers (CurveZMQ, ZeroMQ RFC 26): Curve25519 key pairs as Z85 text (RFC 32).</summary>
public static class Curve
{
    /// <summary>The size of a raw CURVE key: 32 bytes.</summary>
    public const int KeySize = 32;

    /// <summary>The size of libzmq's Z85 key buffer: 40 characters plus a terminating NUL.</summary>
    /// <remarks>The strings this class returns are 40 characters long.</remarks>
    public const int Z85KeySize = 41;

    private const int Z85KeyLength = Z85KeySize - 1;

    /// <summary>Creates a fresh Curve25519 key pair from a cryptographic random number generator.</summary>
    /// <returns>The public and secret keys, each as 40 Z85 characters.</returns>
    /// <exception cref="NotSupportedException">CURVE is not available (<c>Context.Has("curve")</c> is false).</exception>
    public static (string PublicKey, string SecretKey) GenerateKeypair()
    {
        EnsureSupported();
        Span<byte> secretKey = stackalloc byte[KeySize];
        Span<byte> publicKey = stackalloc byte[KeySize];
        RandomNumberGenerator.Fill(secretKey);
        CurveCryptoProviders.Default.DerivePublicKey(secretKey, publicKey);
        (string, string) pair = (Z85.Encode(publicKey), Z85.Encode(secretKey));
        CryptographicOperations.ZeroMemory(secretKey);
        return pair;
    }

    /// <summary>Derives the public key that belongs to a secret key (X25519 with the base point, RFC 7748 §6.1).</summary>
    /// <param name="secretKey">The secret key as 40 Z85 characters.</param>
    /// <returns>The public key as 40 Z85 characters.</returns>
    /// <exception cref="ArgumentNullException"><paramref name="secretKey"/> is null.</exception>
    /// <exception cref="NotSupportedException">CURVE is not available (<c>Context.Has("curve")</c> is false).</exception>
    /// <exception cref="ZmqException">EINVAL: <paramref name="secretKey"/> is not exactly 40 valid Z85 characters.</exception>
    public static string DerivePublicKey(string secretKey)
    {
        if (secretKey is null)
        {
            ThrowHelper.ThrowArgumentNullException(nameof(secretKey));
        }

        EnsureSupported();
        if (secretKey.Length != Z85KeyLength)
        {
            ThrowHelper.ThrowZmqException(ZmqConstants.EINVAL);
        }

        // Z85.Decode throws ZmqException(EINVAL) itself for characters outside the alphabet.
        byte[] secret = Z85.Decode(secretKey);
        Span<byte> publicKey = stackalloc byte[KeySize];
        CurveCryptoProviders.Default.DerivePublicKey(secret, publicKey);
        CryptographicOperations.ZeroMemory(secret);
        return Z85.Encode(publicKey);
    }

    private static void EnsureSupported()
    {
        if (!Context.Has("curve"))
        {
            throw new NotSupportedException("CURVE security is not available");
        }
    }
}
