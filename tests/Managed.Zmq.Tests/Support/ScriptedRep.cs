namespace Managed.Zmq.Tests.Support;

/// <summary>A scripted REP over TCP for a REQ under test: the accepted peer, and the requests it reads.</summary>
internal static class ScriptedRep
{
    /// <summary>Connects <paramref name="req"/> to <paramref name="listener"/> and completes the NULL handshake as a REP.</summary>
    public static RawPeer Accept(RawListener listener, Socket req)
    {
        req.Connect(listener.Endpoint);
        var rep = listener.Accept();
        rep.CompleteNullHandshake("REP");
        return rep;
    }

    /// <summary>Reads one request: the empty delimiter, then the body.</summary>
    public static byte[] ReadRequest(RawPeer rep)
    {
        var (delimiterFlags, delimiter) = rep.ReadFrame();
        Assert.Equal(ZmtpBytes.FlagMore, delimiterFlags);
        Assert.Empty(delimiter);
        return rep.ReadFrame().Body;
    }
}
