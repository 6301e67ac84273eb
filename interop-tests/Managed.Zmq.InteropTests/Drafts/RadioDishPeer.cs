#if !INTEROP_WITHOUT_CORE
using System.Globalization;

namespace Managed.Zmq.InteropTests.Drafts;

/// <summary>
/// The libzmq RADIO or DISH peer (radio-dish-peer.c), built as <see cref="DraftPeer"/>'s is; when there is no
/// draft-enabled libzmq the tests FAIL with the command that builds it: interop tests are never skipped.
/// </summary>
internal sealed class RadioDishPeer : DraftCPeer
{
    private static readonly Lazy<string> s_executable = new(() => DraftCProgram.Compile("radio-dish-peer"));

    private RadioDishPeer(params string[] arguments)
        : base("radio-dish-peer", s_executable.Value, arguments)
    {
    }

    /// <summary>
    /// Starts the peer: <paramref name="role"/> "radio" or "dish", <paramref name="bind"/> or connect to
    /// <paramref name="endpoint"/>, for <paramref name="count"/> messages of <paramref name="group"/>.
    /// </summary>
    public static RadioDishPeer Start(string role, bool bind, string endpoint, string group, int count) =>
        new(role, bind ? "bind" : "connect", endpoint, group, count.ToString(CultureInfo.InvariantCulture));

    /// <summary>Tells a RADIO peer to stop probing and send its messages.</summary>
    public void Go()
    {
        Process.StandardInput.WriteLine("go");
        Process.StandardInput.Flush();
    }
}
#endif
