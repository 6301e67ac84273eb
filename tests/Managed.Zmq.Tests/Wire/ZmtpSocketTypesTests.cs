using Managed.Zmq.Wire;

namespace Managed.Zmq.Tests.Wire;

/// <summary>Socket-type names and the compatibility matrix (RFC 23 §The Socket-Type Property; docs/libzmq-behaviour.md L6).</summary>
public sealed class ZmtpSocketTypesTests
{
    // The lists from section Q, written independently of the implementation.
    private static readonly Dictionary<string, string[]> s_compatible = new()
    {
        ["REQ"] = ["REP", "ROUTER"],
        ["REP"] = ["REQ", "DEALER"],
        ["DEALER"] = ["REP", "DEALER", "ROUTER"],
        ["ROUTER"] = ["REQ", "DEALER", "ROUTER"],
        ["PUB"] = ["SUB", "XSUB"],
        ["XPUB"] = ["SUB", "XSUB"],
        ["SUB"] = ["PUB", "XPUB"],
        ["XSUB"] = ["PUB", "XPUB"],
        ["PUSH"] = ["PULL"],
        ["PULL"] = ["PUSH"],
        ["PAIR"] = ["PAIR"],
    };

    [Theory]
    [InlineData(0, "PAIR")]
    [InlineData(1, "PUB")]
    [InlineData(2, "SUB")]
    [InlineData(3, "REQ")]
    [InlineData(4, "REP")]
    [InlineData(5, "DEALER")]
    [InlineData(6, "ROUTER")]
    [InlineData(7, "PULL")]
    [InlineData(8, "PUSH")]
    [InlineData(9, "XPUB")]
    [InlineData(10, "XSUB")]
    [InlineData(11, "")]
    [InlineData(12, "SERVER")]
    [InlineData(13, "CLIENT")]
    [InlineData(14, "RADIO")]
    [InlineData(15, "DISH")]
    [InlineData(16, "GATHER")]
    [InlineData(17, "SCATTER")]
    [InlineData(20, "CHANNEL")]
    [InlineData(19, "PEER")]
    public void GetName_Type_UpperCaseName(int type, string expected)
    {
        Assert.Equal(expected, System.Text.Encoding.ASCII.GetString(ZmtpSocketTypes.GetName((SocketType)type)));
    }

    [Fact]
    public void TryParseName_EveryName_RoundTrips()
    {
        foreach (var type in Enum.GetValues<SocketType>().Where(t => t != SocketType.Stream))
        {
            Assert.True(ZmtpSocketTypes.TryParseName(ZmtpSocketTypes.GetName(type), out SocketType parsed));
            Assert.Equal(type, parsed);
        }
    }

    [Theory]
    [InlineData("")]
    [InlineData("dealer")]
    [InlineData("Dealer")]
    [InlineData("DEALER ")]
    [InlineData("DEALE")]
    [InlineData("STREAM")]
    [InlineData("client")]
    [InlineData("radio")]
    [InlineData("DISH ")]
    [InlineData("peer")]
    [InlineData("channel")]
    [InlineData("SCATTER\0")]
    public void TryParseName_NotAnExactKnownName_ReturnsFalse(string name)
    {
        Assert.False(ZmtpSocketTypes.TryParseName(System.Text.Encoding.ASCII.GetBytes(name), out _));
    }

    /// <summary>RFC 41: CLIENT and SERVER talk only to each other; libzmq's check_socket_type accepts no other pair.</summary>
    [Fact]
    public void AreCompatible_DraftClientServer_OnlyWithEachOther()
    {
        foreach (var local in new[] { SocketType.Server, SocketType.Client })
        {
            foreach (var peer in Enum.GetValues<SocketType>())
            {
                bool expected = (local, peer) is (SocketType.Server, SocketType.Client) or (SocketType.Client, SocketType.Server);
                Assert.Equal(expected, ZmtpSocketTypes.AreCompatible(local, peer));
                Assert.Equal(expected, ZmtpSocketTypes.AreCompatible(peer, local));
            }
        }
    }

    /// <summary>RFC 49 and RFC 52: SCATTER talks only to GATHER, CHANNEL only to CHANNEL, as libzmq's check_socket_type.</summary>
    [Fact]
    public void AreCompatible_ScatterGatherChannel_OnlyTheirRfcPeers()
    {
        foreach (var local in new[] { SocketType.Scatter, SocketType.Gather, SocketType.Channel })
        {
            foreach (var peer in Enum.GetValues<SocketType>())
            {
                bool expected = (local, peer) is (SocketType.Scatter, SocketType.Gather) or (SocketType.Gather, SocketType.Scatter)
                    or (SocketType.Channel, SocketType.Channel);
                Assert.Equal(expected, ZmtpSocketTypes.AreCompatible(local, peer));
                Assert.Equal(expected, ZmtpSocketTypes.AreCompatible(peer, local));
            }
        }
    }

    /// <summary>RFC 51: PEER talks only to PEER; libzmq's check_socket_type accepts no other pair.</summary>
    [Fact]
    public void AreCompatible_DraftPeer_OnlyWithPeer()
    {
        foreach (var peer in Enum.GetValues<SocketType>())
        {
            bool expected = peer == SocketType.Peer;
            Assert.Equal(expected, ZmtpSocketTypes.AreCompatible(SocketType.Peer, peer));
            Assert.Equal(expected, ZmtpSocketTypes.AreCompatible(peer, SocketType.Peer));
        }
    }

    [Fact]
    public void AreCompatible_All121ClassicPairs_MatchSectionQ()
    {
        int checkedPairs = 0;
        int compatiblePairs = 0;
        for (var local = SocketType.Pair; local <= SocketType.XSub; local++)
        {
            for (var peer = SocketType.Pair; peer <= SocketType.XSub; peer++)
            {
                string localName = System.Text.Encoding.ASCII.GetString(ZmtpSocketTypes.GetName(local));
                string peerName = System.Text.Encoding.ASCII.GetString(ZmtpSocketTypes.GetName(peer));
                bool expected = Array.IndexOf(s_compatible[localName], peerName) >= 0;

                Assert.True(expected == ZmtpSocketTypes.AreCompatible(local, peer), $"{localName} with {peerName}: expected {expected}");
                checkedPairs++;
                compatiblePairs += expected ? 1 : 0;
            }
        }

        Assert.Equal(121, checkedPairs);
        Assert.Equal(21, compatiblePairs);
    }

    [Fact]
    public void AreCompatible_AnyPair_IsSymmetric()
    {
        for (var a = SocketType.Pair; a <= SocketType.Stream; a++)
        {
            for (var b = SocketType.Pair; b <= SocketType.Stream; b++)
            {
                Assert.Equal(ZmtpSocketTypes.AreCompatible(a, b), ZmtpSocketTypes.AreCompatible(b, a));
            }
        }
    }

    [Fact]
    public void AreCompatible_Stream_NeverCompatible()
    {
        for (var type = SocketType.Pair; type <= SocketType.Stream; type++)
        {
            Assert.False(ZmtpSocketTypes.AreCompatible(SocketType.Stream, type));
            Assert.False(ZmtpSocketTypes.AreCompatible(type, SocketType.Stream));
        }
    }

    [Theory]
    [InlineData(0, false)]
    [InlineData(1, false)]
    [InlineData(2, false)]
    [InlineData(3, true)]
    [InlineData(4, false)]
    [InlineData(5, true)]
    [InlineData(6, true)]
    [InlineData(7, false)]
    [InlineData(8, false)]
    [InlineData(9, false)]
    [InlineData(10, false)]
    [InlineData(11, false)]
    public void SendsIdentity_Type_OnlyReqDealerRouter(int type, bool expected)
    {
        Assert.Equal(expected, ZmtpSocketTypes.SendsIdentity((SocketType)type));
    }
}
