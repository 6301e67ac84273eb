using System.Buffers.Binary;
using System.Runtime.Intrinsics.X86;
using System.Security.Cryptography;

namespace Managed.Zmq.Security.Crypto;

/// <summary>
/// One direction's MESSAGE cipher in managed code. The nonce's HSalsa20 step reads only the fixed
/// prefix, so its result (the stream key) is derived once. A small message (up to 96 octets) needs
/// two blocks of key stream, and the short nonces of a stream of messages are consecutive, so
/// with AVX2 one eight-lane batch makes the two blocks of four nonces at once, where a message
/// alone would pay for a four-block batch and use half of it.
/// </summary>
/// <remarks>
/// A slice of made-ahead key stream is used at most once, only for its own nonce, and only in
/// increasing nonce order (RFC 26: nonces never repeat and, here, only grow); it is wiped once
/// used, and the rest with the cipher. A nonce outside the batch, or below one already used,
/// makes a new batch from itself.
/// </remarks>
internal sealed class ManagedMessageCipher : ICurveMessageCipher
{
    private const int BatchMessages = 4;

    /// <summary>Key stream per message: the Poly1305 key and up to 96 octets of message.</summary>
    private const int StreamPerMessage = 2 * Salsa20.BlockSize;

    private const int ShortNonceSize = 8;

    private readonly byte[] _streamKey = new byte[XSalsa20Poly1305.KeySize];
    private readonly byte[] _keyStreams = new byte[BatchMessages * StreamPerMessage];
    private readonly byte[] _batchNonces = new byte[BatchMessages * ShortNonceSize];

    /// <summary>The nonce whose key stream starts <see cref="_keyStreams"/>.</summary>
    private ulong _firstNonce;

    /// <summary>The index of the first slice not used yet; <see cref="BatchMessages"/> when there is none.</summary>
    private int _nextUnused = BatchMessages;

    private bool _disposed;

    public ManagedMessageCipher(ReadOnlySpan<byte> sharedKey, ReadOnlySpan<byte> noncePrefix)
    {
        XSalsa20Poly1305.DeriveStreamKey(sharedKey, noncePrefix, _streamKey);
    }

    public void Seal(ReadOnlySpan<byte> shortNonce, ReadOnlySpan<byte> plaintext, Span<byte> box)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (!UsesBatches(plaintext.Length))
        {
            XSalsa20Poly1305.SealWithStreamKey(_streamKey, shortNonce, plaintext, box);
            return;
        }

        Span<byte> keyStream = TakeKeyStream(shortNonce);
        XSalsa20Poly1305.SealWithKeyStream(keyStream, plaintext, box);
        CryptographicOperations.ZeroMemory(keyStream);
    }

    public bool Open(ReadOnlySpan<byte> shortNonce, ReadOnlySpan<byte> box, Span<byte> plaintext)
    {
        ObjectDisposedException.ThrowIf(_disposed, this);
        if (box.Length < XSalsa20Poly1305.Overhead || !UsesBatches(box.Length - XSalsa20Poly1305.Overhead))
        {
            return XSalsa20Poly1305.OpenWithStreamKey(_streamKey, shortNonce, box, plaintext);
        }

        Span<byte> keyStream = TakeKeyStream(shortNonce);
        bool opened = XSalsa20Poly1305.OpenWithKeyStream(keyStream, box, plaintext);
        CryptographicOperations.ZeroMemory(keyStream);
        return opened;
    }

    /// <summary>Wipes the stream key and the made-ahead key stream; the cipher cannot be used after this.</summary>
    public void Dispose()
    {
        _disposed = true;
        CryptographicOperations.ZeroMemory(_streamKey);
        CryptographicOperations.ZeroMemory(_keyStreams);
        _nextUnused = BatchMessages;
    }

    private static bool UsesBatches(int messageLength) =>
        Poly1305.KeySize + messageLength <= StreamPerMessage && Avx2.IsSupported;

    /// <summary>The two key-stream blocks of <paramref name="shortNonce"/>, from the batch or from a new one.</summary>
    private Span<byte> TakeKeyStream(ReadOnlySpan<byte> shortNonce)
    {
        ulong nonce = BinaryPrimitives.ReadUInt64BigEndian(shortNonce);
        ulong index = nonce - _firstNonce;
        if (index >= BatchMessages || (int)index < _nextUnused)
        {
            MakeBatch(nonce);
            index = 0;
        }

        _nextUnused = (int)index + 1;
        return _keyStreams.AsSpan((int)index * StreamPerMessage, StreamPerMessage);
    }

    private void MakeBatch(ulong firstNonce)
    {
        for (int i = 0; i < BatchMessages; i++)
        {
            BinaryPrimitives.WriteUInt64BigEndian(_batchNonces.AsSpan(i * ShortNonceSize), firstNonce + (ulong)i);
        }

        Salsa20.KeyStreamPairs(_streamKey, _batchNonces, _keyStreams);
        _firstNonce = firstNonce;
        _nextUnused = 0;
    }
}
