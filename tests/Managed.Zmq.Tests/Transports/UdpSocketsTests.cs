using System.Net.Sockets;
using Managed.Zmq.Transports.Udp;

namespace Managed.Zmq.Tests.Transports;

/// <summary>The sending udp socket a RADIO opens: Multicast_Loop becomes IP_MULTICAST_LOOP, as in libzmq's udp engine.</summary>
public sealed class UdpSocketsTests
{
    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void OpenSender_MulticastTarget_LoopbackAsMulticastLoopSays(bool loop)
    {
        const string endpoint = "udp://239.193.11.1:5555";
        Assert.Equal(0, UdpAddress.TryParse(endpoint, endpoint["udp://".Length..], forBind: false, ipv6: false, out var address));

        using var socket = UdpSockets.OpenSender(address!, multicastHops: 1, multicastLoop: loop);

        int value = (int)socket.GetSocketOption(SocketOptionLevel.IP, SocketOptionName.MulticastLoopback)!;
        Assert.Equal(loop, value != 0);
    }

}
