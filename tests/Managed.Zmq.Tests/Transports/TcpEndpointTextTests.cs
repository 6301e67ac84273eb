namespace Managed.Zmq.Tests.Transports;

/// <summary>
/// The text of a tcp:// endpoint, refused before anything is looked up where libzmq refuses it: a connect's text
/// with a character no address or host name has, and a bind's host that names no interface.
/// </summary>
public sealed class TcpEndpointTextTests : TransportSockets
{
    [Theory]
    [InlineData("tcp://a b:5555")]
    [InlineData("tcp://_host:5555")]
    [InlineData("tcp://host:5555/")]
    [InlineData("tcp://hôst:5555")]
    public void Connect_CharacterNoAddressHas_Einval(string endpoint)
    {
        AssertZmqError(ZmqConstants.EINVAL, () => Create(SocketType.Dealer).Connect(endpoint));
    }

    [Theory]
    [InlineData("tcp://host_name:5555")]
    [InlineData("tcp://[::1%lo]:5555")]
    [InlineData("tcp://127.0.0.2:0;127.0.0.1:5555")]
    public void Connect_CharactersLibzmqAllows_Accepted(string endpoint)
    {
        var dealer = Create(SocketType.Dealer);

        Assert.Null(Record.Exception(() => dealer.Connect(endpoint)));

        // Accepted means kept under its text, as Last_Endpoint reports it and Disconnect finds it (ENOENT otherwise).
        Assert.Equal(endpoint, dealer.GetOptionString(SocketOption.Last_Endpoint));
        Assert.Null(Record.Exception(() => dealer.Disconnect(endpoint)));
    }

    [Theory]
    [InlineData("tcp://:5555")]
    [InlineData("tcp://[::1]:*")]
    public void Bind_EmptyHostOrIpv6LiteralWithoutIpv6_Enodev(string endpoint)
    {
        AssertZmqError(ZmqConstants.ENODEV, () => Create(SocketType.Router).Bind(endpoint));
    }
}
