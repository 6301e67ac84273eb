namespace Managed.Zmq.Security.Crypto;

/// <summary>Which <see cref="ICurveCryptoProvider"/> new CURVE connections use.</summary>
/// <remarks>
/// The managed implementation is the default. An optional package (Managed.Zmq.Sodium, planned on
/// NSec.Cryptography) replaces it by assigning <see cref="Default"/> before the first connection;
/// a connection keeps the provider it started with (<see cref="MechanismSettings.CurveCrypto"/>).
/// </remarks>
internal static class CurveCryptoProviders
{
    private static volatile ICurveCryptoProvider s_default = ManagedCurveCrypto.Instance;

    /// <summary>The provider for connections created from now on.</summary>
    public static ICurveCryptoProvider Default
    {
        get => s_default;
        set => s_default = value ?? ManagedCurveCrypto.Instance;
    }
}
