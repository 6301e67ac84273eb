#if !INTEROP_WITHOUT_CORE
using System.Globalization;

namespace Managed.Zmq.InteropTests.Drafts;

/// <summary>
/// The libzmq SERVER or CLIENT peer (draft-peer.c): Debian's libzmq5 has no draft API, so neither pyzmq nor the
/// in-process binding can play these types. When the draft-enabled libzmq is missing the tests FAIL with the
/// command that builds it (<see cref="DraftCProgram"/>): interop tests are never skipped.
/// </summary>
internal sealed class DraftPeer : DraftCPeer
{
    private static readonly Lazy<string> s_executable = new(() => DraftCProgram.Compile("draft-peer"));

    private DraftPeer(params string[] arguments)
        : base("draft-peer", s_executable.Value, arguments)
    {
    }

    /// <summary>Starts the peer: <paramref name="mode"/> "server" (binds) or "client" (connects), for <paramref name="count"/> exchanges.</summary>
    public static DraftPeer Start(string mode, string endpoint, int count) =>
        new(mode, endpoint, count.ToString(CultureInfo.InvariantCulture));
}
#endif
