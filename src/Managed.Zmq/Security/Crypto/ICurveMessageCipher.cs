namespace Managed.Zmq.Security.Crypto;

/// <summary>
/// crypto_box_afternm and crypto_box_open_afternm for one direction of a CURVE connection: the
/// shared key and the nonce prefix are fixed, the 8-octet short nonce varies (RFC 26 §The MESSAGE
/// Command). An implementation may keep per-direction state (a derived key, key stream made ahead)
/// and is used by one thread at a time.
/// </summary>
internal interface ICurveMessageCipher : IDisposable
{
    /// <summary>Seals <paramref name="plaintext"/> into <paramref name="box"/> (16 + plaintext length); <paramref name="plaintext"/> may be exactly <c>box[16..]</c>.</summary>
    void Seal(ReadOnlySpan<byte> shortNonce, ReadOnlySpan<byte> plaintext, Span<byte> box);

    /// <summary>Verifies in constant time and decrypts; <paramref name="plaintext"/> may be exactly <c>box[16..]</c>.</summary>
    /// <returns>False, with <paramref name="plaintext"/> untouched, when the box is shorter than 16 octets or does not authenticate.</returns>
    bool Open(ReadOnlySpan<byte> shortNonce, ReadOnlySpan<byte> box, Span<byte> plaintext);
}
