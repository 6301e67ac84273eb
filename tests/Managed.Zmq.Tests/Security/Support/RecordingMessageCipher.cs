using Managed.Zmq.Security.Crypto;

namespace Managed.Zmq.Tests.Security.Support;

/// <summary>A message cipher that adds "prefix:short nonce" to a list for every MESSAGE it seals.</summary>
internal sealed class RecordingMessageCipher(ICurveMessageCipher inner, string prefix, List<string> sealNonces) : ICurveMessageCipher
{
    public void Seal(ReadOnlySpan<byte> shortNonce, ReadOnlySpan<byte> plaintext, Span<byte> box)
    {
        sealNonces.Add(prefix + ":" + Convert.ToHexString(shortNonce));
        inner.Seal(shortNonce, plaintext, box);
    }

    public bool Open(ReadOnlySpan<byte> shortNonce, ReadOnlySpan<byte> box, Span<byte> plaintext) => inner.Open(shortNonce, box, plaintext);

    public void Dispose() => inner.Dispose();
}
