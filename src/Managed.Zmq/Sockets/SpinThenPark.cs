namespace Managed.Zmq.Sockets;

/// <summary>
/// The wait of every blocking call (Send, Recv, Poll) after its first attempt found nothing to do: a few short
/// spins, then parking on a <see cref="WakeSequence"/> until a wake or the deadline. The caller retries its
/// attempt after each successful <see cref="Next"/>; while parked, that retry runs after the wait was registered,
/// so a change that lands in between is never missed.
/// </summary>
/// <remarks>
/// A struct on the caller's stack (no allocation). Pass it by ref and call <see cref="Dispose"/> in a
/// <c>finally</c>: an attempt that ends the call (success or an exception) leaves a registered wait behind.
/// </remarks>
internal struct SpinThenPark
{
    private readonly WakeSequence _signal;
    private readonly long _deadlineTicks;
    private readonly int _spins;
    private SpinWait _spinner;
    private int _spun;
    private int _sequence;
    private bool _registered;

    /// <param name="signal">Where to park.</param>
    /// <param name="deadlineTicks">From <see cref="WakeSequence.DeadlineFromTimeout"/>.</param>
    /// <param name="spins">Rounds of short spinning before the first park (Tuning.Blocking).</param>
    public SpinThenPark(WakeSequence signal, long deadlineTicks, int spins)
    {
        _signal = signal;
        _deadlineTicks = deadlineTicks;
        _spins = spins;
    }

    /// <summary>
    /// Waits before the next attempt: a spin while spins remain, else (after the previous attempt, made while
    /// registered, found nothing) a park until a wake, then a new registration. False when the deadline passed.
    /// </summary>
    public bool Next()
    {
        if (_spun < _spins)
        {
            _spun++;

            // No sleep(1): it would cost a millisecond, far more than the round trip a spinner waits for.
            _spinner.SpinOnce(sleep1Threshold: -1);
            return true;
        }

        if (_registered)
        {
            bool woken = _signal.Wait(_sequence, _deadlineTicks);
            _registered = false;
            _signal.EndWait();
            if (!woken)
            {
                return false;
            }
        }

        _sequence = _signal.BeginWait();
        _registered = true;
        return true;
    }

    /// <summary>Ends a registered wait, if any.</summary>
    public void Dispose()
    {
        if (_registered)
        {
            _registered = false;
            _signal.EndWait();
        }
    }
}
