namespace Managed.Zmq.Options;

/// <summary>Which directions an option may be accessed in. Anything else gives EINVAL.</summary>
[Flags]
internal enum OptionAccess
{
    /// <summary>Neither readable nor writable.</summary>
    None = 0,

    /// <summary>Readable.</summary>
    Read = 1,

    /// <summary>Writable.</summary>
    Write = 2,

    /// <summary>Readable and writable.</summary>
    ReadWrite = Read | Write,
}
