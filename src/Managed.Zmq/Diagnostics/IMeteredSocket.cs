namespace Managed.Zmq.Diagnostics;

/// <summary>
/// One socket as <see cref="ZmqMetrics"/> reads it when a listener collects: its type tag, its
/// blocked sends, and its pipes' totals by endpoint. The socket layer implements it.
/// </summary>
internal interface IMeteredSocket
{
    /// <summary>The <c>zmq.socket.type</c> tag value: the ZMTP name, e.g. ROUTER.</summary>
    string TypeName { get; }

    /// <summary>Sends that found the pattern unable to take the message, read racily.</summary>
    long BlockedSends { get; }

    /// <summary>Collector thread: this socket's totals by endpoint, live pipes' depths included.</summary>
    void Collect(Dictionary<string, PipeTotals> into);
}
