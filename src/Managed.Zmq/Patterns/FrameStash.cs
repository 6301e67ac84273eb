namespace Managed.Zmq.Patterns;

/// <summary>
/// A reusable store for a few frames (a REP envelope): one growing byte buffer plus lengths, so
/// saving and replaying an envelope allocates nothing in steady state.
/// </summary>
internal sealed class FrameStash
{
    private byte[] _bytes = new byte[256];
    private int _length;
    private readonly List<int> _frameLengths = [];

    public int Count => _frameLengths.Count;

    public void Clear()
    {
        _length = 0;
        _frameLengths.Clear();
    }

    public void Add(ReadOnlySpan<byte> frame)
    {
        if (_bytes.Length - _length < frame.Length)
        {
            Array.Resize(ref _bytes, Math.Max(_bytes.Length * 2, _length + frame.Length));
        }

        frame.CopyTo(_bytes.AsSpan(_length));
        _length += frame.Length;
        _frameLengths.Add(frame.Length);
    }

    /// <summary>The frames in order.</summary>
    public ReadOnlySpan<byte> this[int index]
    {
        get
        {
            int offset = 0;
            for (int i = 0; i < index; i++)
            {
                offset += _frameLengths[i];
            }

            return _bytes.AsSpan(offset, _frameLengths[index]);
        }
    }
}
