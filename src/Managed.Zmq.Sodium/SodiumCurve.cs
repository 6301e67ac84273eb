using Managed.Zmq.Security.Crypto;

namespace Managed.Zmq.Sodium;

/// <summary>
/// Switches Managed.Zmq's CURVE key agreement (X25519) to libsodium, through NSec.Cryptography,
/// for applications that may load native code: a CURVE handshake does four to six X25519
/// multiplications, which libsodium does faster than the managed code (docs/security.md, "Speed, and Managed.Zmq.Sodium"). Traffic
/// encryption is unchanged. The core package stays free of native code; this one brings libsodium.
/// </summary>
/// <code>
/// Managed.Zmq.Sodium.SodiumCurve.Install();   // once, before the first CURVE connection
/// </code>
public static class SodiumCurve
{
    /// <summary>Whether CURVE connections created from now on use libsodium's X25519.</summary>
    public static bool IsInstalled => ReferenceEquals(CurveCryptoProviders.Default, SodiumCurveCrypto.Instance);

    /// <summary>CURVE connections created from now on use libsodium's X25519; connections already open keep theirs.</summary>
    /// <remarks>Loads libsodium at once, so a missing native library fails here rather than in a handshake on an I/O thread.</remarks>
    public static void Install()
    {
        Span<byte> secret = stackalloc byte[32];
        Span<byte> publicKey = stackalloc byte[32];
        secret.Clear();
        secret[0] = 1;
        SodiumCurveCrypto.Instance.DerivePublicKey(secret, publicKey);
        CurveCryptoProviders.Default = SodiumCurveCrypto.Instance;
    }

    /// <summary>CURVE connections created from now on use the managed X25519 again.</summary>
    public static void Uninstall() => CurveCryptoProviders.Default = ManagedCurveCrypto.Instance;
}
