using System.Text;

namespace Managed.Zmq;

public sealed partial class Socket
{
    /// <summary>Subscribes to every message (SUB).</summary>
    public void SubscribeAll() => SetOption(SocketOption.Subscribe, Array.Empty<byte>());

    /// <summary>Adds a prefix subscription (SUB); counted, so two subscribes need two unsubscribes.</summary>
    /// <param name="prefix">The prefix the first frame must start with.</param>
    public void Subscribe(byte[] prefix)
    {
        ArgumentNullException.ThrowIfNull(prefix);
        SetOption(SocketOption.Subscribe, prefix);
    }

    /// <summary>Adds a UTF-8 prefix subscription (SUB); <c>""</c> subscribes to everything.</summary>
    /// <param name="prefix">The prefix.</param>
    public void Subscribe(string prefix)
    {
        ArgumentNullException.ThrowIfNull(prefix);
        SetOption(SocketOption.Subscribe, Encoding.UTF8.GetBytes(prefix));
    }

    /// <summary>Removes one empty-prefix subscription (SUB).</summary>
    public void UnsubscribeAll() => SetOption(SocketOption.Unsubscribe, Array.Empty<byte>());

    /// <summary>Removes one matching subscription (SUB); an unknown prefix is ignored.</summary>
    /// <param name="prefix">The prefix.</param>
    public void Unsubscribe(byte[] prefix)
    {
        ArgumentNullException.ThrowIfNull(prefix);
        SetOption(SocketOption.Unsubscribe, prefix);
    }

    /// <summary>Removes one matching UTF-8 subscription (SUB).</summary>
    /// <param name="prefix">The prefix.</param>
    public void Unsubscribe(string prefix)
    {
        ArgumentNullException.ThrowIfNull(prefix);
        SetOption(SocketOption.Unsubscribe, Encoding.UTF8.GetBytes(prefix));
    }
}
