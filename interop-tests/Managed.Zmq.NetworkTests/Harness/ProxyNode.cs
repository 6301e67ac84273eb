namespace Managed.Zmq.NetworkTests.Harness;

/// <summary>The fault proxy (NetNode's FaultProxy) running in a host's namespace.</summary>
internal sealed class ProxyNode : LineProcess
{
    private ProxyNode(Host host, IEnumerable<string> args)
        : base($"proxy at {host.Address}", host.Namespace, "dotnet", args)
    {
    }

    public static ProxyNode Start(Host host, int listenPort, string targetHost, int targetPort)
    {
        var proxy = new ProxyNode(host, [Path.Combine(AppContext.BaseDirectory, "Managed.Zmq.NetNode.dll"), "proxy", $"{listenPort}", targetHost, $"{targetPort}"]);
        Assert.Equal("ok listening", proxy.NextLine("listening line", (int)ReplyDeadline.TotalMilliseconds));
        return proxy;
    }

    public void Delay(int milliseconds) => Ok($"delay {milliseconds}");

    public void Rate(long bytesPerSecond) => Ok($"rate {bytesPerSecond}");

    /// <summary>Stops every byte both ways, without FIN or RST.</summary>
    public void Partition() => Ok("partition");

    public void Heal() => Ok("heal");

    public string Stats() => Ok("stats");
}
