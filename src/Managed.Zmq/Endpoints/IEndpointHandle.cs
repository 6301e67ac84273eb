namespace Managed.Zmq.Endpoints;

/// <summary>A bound listener or a connecter, as the socket tracks them for Unbind, Disconnect and close.</summary>
internal interface IEndpointHandle
{
    /// <summary>The endpoint string as the user passed it.</summary>
    string Address { get; }

    /// <summary>The resolved form (<c>Last_Endpoint</c>), e.g. with the real ephemeral port.</summary>
    string ResolvedAddress { get; }

    bool IsBound { get; }

    /// <summary>Stops it. A connecter with queued messages keeps trying for up to <paramref name="lingerMilliseconds"/> (-1: until sent).</summary>
    void Stop(int lingerMilliseconds);
}
