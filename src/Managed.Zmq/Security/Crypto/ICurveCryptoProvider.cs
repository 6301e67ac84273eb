namespace Managed.Zmq.Security.Crypto;

/// <summary>
/// The primitives CURVE needs (the crypto_box family RFC 26 builds on), behind a seam so
/// that an optional package can supply a native-backed implementation. Keys are 32 octets, nonces
/// 24, and boxes use the wire layout MAC (16) ‖ ciphertext.
/// </summary>
/// <remarks>Implementations must be thread-safe and stateless: one instance serves every connection.</remarks>
internal interface ICurveCryptoProvider
{
    /// <summary>The public key of <paramref name="secretKey"/>: X25519(secret, 9) (RFC 7748 §6.1).</summary>
    void DerivePublicKey(ReadOnlySpan<byte> secretKey, Span<byte> publicKey);

    /// <summary>
    /// crypto_box_beforenm: HSalsa20(X25519(secret, public), 0) into <paramref name="sharedKey"/>.
    /// </summary>
    /// <returns>False when the X25519 result is all zeros (a small-order or zero public key).</returns>
    bool BoxBeforeNm(ReadOnlySpan<byte> publicKey, ReadOnlySpan<byte> secretKey, Span<byte> sharedKey);

    /// <summary>
    /// crypto_box_afternm / crypto_secretbox: seals <paramref name="plaintext"/> into
    /// <paramref name="box"/> (16 + plaintext length). <paramref name="plaintext"/> may be exactly <c>box[16..]</c>.
    /// </summary>
    void SealAfterNm(ReadOnlySpan<byte> sharedKey, ReadOnlySpan<byte> nonce, ReadOnlySpan<byte> plaintext, Span<byte> box);

    /// <summary>
    /// crypto_box_open_afternm / crypto_secretbox_open: verifies in constant time and decrypts.
    /// <paramref name="plaintext"/> may be exactly <c>box[16..]</c>.
    /// </summary>
    /// <returns>False when the box is shorter than 16 octets or does not authenticate.</returns>
    bool OpenAfterNm(ReadOnlySpan<byte> sharedKey, ReadOnlySpan<byte> nonce, ReadOnlySpan<byte> box, Span<byte> plaintext);

    /// <summary>
    /// The sealer and opener of one direction's MESSAGE commands, whose nonces share a 16-octet
    /// prefix (RFC 26: "CurveZMQMESSAGEC" or "CurveZMQMESSAGES") and differ in the short nonce;
    /// the caller disposes it with the connection.
    /// </summary>
    ICurveMessageCipher CreateMessageCipher(ReadOnlySpan<byte> sharedKey, ReadOnlySpan<byte> noncePrefix);
}
