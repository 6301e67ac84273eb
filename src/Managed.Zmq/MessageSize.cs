namespace Managed.Zmq;

/// <summary>The capacities of the <see cref="MessagePool"/> buckets, in bytes.</summary>
public enum MessageSize
{
    /// <summary>16 bytes.</summary>
    B16 = 16,

    /// <summary>32 bytes.</summary>
    B32 = 32,

    /// <summary>64 bytes.</summary>
    B64 = 64,

    /// <summary>128 bytes.</summary>
    B128 = 128,

    /// <summary>256 bytes.</summary>
    B256 = 256,

    /// <summary>512 bytes.</summary>
    B512 = 512,

    /// <summary>1 KiB.</summary>
    K1 = 1024,

    /// <summary>2 KiB.</summary>
    K2 = 2048,

    /// <summary>4 KiB.</summary>
    K4 = 4096,

    /// <summary>8 KiB.</summary>
    K8 = 8192,

    /// <summary>16 KiB.</summary>
    K16 = 16384,

    /// <summary>32 KiB.</summary>
    K32 = 32768,

    /// <summary>64 KiB.</summary>
    K64 = 65536,

    /// <summary>128 KiB.</summary>
    K128 = 131072,

    /// <summary>256 KiB.</summary>
    K256 = 262144,

    /// <summary>512 KiB.</summary>
    K512 = 524288,

    /// <summary>1 MiB.</summary>
    M1 = 1048576,

    /// <summary>2 MiB.</summary>
    M2 = 2097152,

    /// <summary>4 MiB, the largest poolable size.</summary>
    M4 = 4194304,
}
