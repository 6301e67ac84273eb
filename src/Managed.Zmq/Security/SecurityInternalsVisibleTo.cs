using System.Runtime.CompilerServices;

// The optional libsodium-backed CURVE provider implements the internal ICurveCryptoProvider seam.
[assembly: InternalsVisibleTo("Managed.Zmq.Sodium")]
