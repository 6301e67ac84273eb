using System.Security.Cryptography;
using System.Text;
using Managed.Zmq.Security;
using Managed.Zmq.Internal;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq;

/// <summary>
/// A ready-made ZAP handler (RFC 27) for one context: it serves <c>inproc://zeromq.zap.01</c> on
/// its own thread from the moment it is created, and every PLAIN or CURVE server of the context,
/// and every NULL server with a <see cref="SocketOption.Zap_Domain"/>, asks it before accepting a
/// client.
/// </summary>
/// <remarks>
/// <para>Rules: <see cref="Allow"/> and <see cref="Deny"/> filter client addresses (an allow list,
/// when set, admits only its addresses); <see cref="ConfigurePlain"/> gives a domain its PLAIN users;
/// <see cref="ConfigureCurve"/> and <see cref="ConfigureCurveAllowAny"/> give a domain its CURVE
/// clients. The domain <c>"*"</c> covers every domain without rules of its own. A mechanism with
/// no rules for a domain is refused there: creating an authenticator never opens a server up.
/// Rules can change at any time, from any thread, and apply to the next handshake.</para>
/// <para>Only one ZAP handler can serve a context: creating a second throws
/// <see cref="ZmqException"/> with EADDRINUSE. Dispose the authenticator before its context (a
/// <c>using</c> declared after the context's does that); if the context goes first, the
/// authenticator stops by itself.</para>
/// <code>
/// using var context = new Context();
/// using var auth = new ZapAuthenticator(context);
/// auth.ConfigureCurve("*", clientPublicKey);      // Z85, 40 characters
/// </code>
/// </remarks>
public sealed class ZapAuthenticator : IDisposable
{
    /// <summary>Where libzmq and Managed.Zmq servers send their ZAP requests (RFC 27).</summary>
    public const string Endpoint = "inproc://zeromq.zap.01";

    private static readonly byte[] Version = "1.0"u8.ToArray();

    /// <summary>Request frames from here on are credentials (a PLAIN password among them): RFC 27 §Message Format.</summary>
    private const int FirstCredentialFrame = 6;

    private readonly ZapPolicy _policy = new();
    private readonly Socket _handler;
    private readonly Socket _stopReceiver;

    /// <summary>
    /// Made with the others: Dispose must not need a new socket, which a context at its MaxSockets would refuse and
    /// leave the thread serving for good. The serving thread closes it as it ends (a context being disposed waits for
    /// it), under <see cref="_stopLock"/>, so that Dispose never sends on it while it closes.
    /// </summary>
    private readonly Socket _stopSender;

    private readonly Lock _stopLock = new();
    private readonly string _stopEndpoint = $"inproc://managed-zmq-zap-authenticator-{Guid.NewGuid():N}";
    private readonly Thread _thread;
    private int _disposed;

    /// <summary>Binds the ZAP endpoint of <paramref name="context"/> and starts answering requests.</summary>
    /// <exception cref="ZmqException">EADDRINUSE when the context already has a ZAP handler; ETERM when it is shut down.</exception>
    public ZapAuthenticator(Context context)
    {
        ArgumentNullException.ThrowIfNull(context);
        Socket? handler = null;
        Socket? stopReceiver = null;
        Socket? stopSender = null;
        try
        {
            // Every socket inside the try: a context waits for every socket at Dispose, so one left
            // open by a failed constructor would hang it.
            handler = new Socket(context, SocketType.Rep);
            stopReceiver = new Socket(context, SocketType.Pair);
            stopSender = new Socket(context, SocketType.Pair);
            handler.SetOption(SocketOption.Linger, 0);
            stopSender.SetOption(SocketOption.Linger, 0);
            handler.Bind(Endpoint);
            stopReceiver.Bind(_stopEndpoint);
            stopSender.Connect(_stopEndpoint);
        }
        catch
        {
            handler?.Dispose();
            stopReceiver?.Dispose();
            stopSender?.Dispose();
            throw;
        }

        _handler = handler;
        _stopReceiver = stopReceiver;
        _stopSender = stopSender;
        _thread = new Thread(Serve) { IsBackground = true, Name = "Managed.Zmq ZAP authenticator" };
        _thread.Start();
    }

    /// <summary>Admits only these client IP addresses (as the ZAP request gives them, e.g. <c>127.0.0.1</c>), together with any allowed before.</summary>
    public void Allow(params string[] addresses) => _policy.Allow(CheckAddresses(addresses));

    /// <summary>Refuses these client IP addresses; ignored once an allow list is set.</summary>
    public void Deny(params string[] addresses) => _policy.Deny(CheckAddresses(addresses));

    /// <summary>Sets the PLAIN users of <paramref name="domain"/> (<c>"*"</c>: every domain) to <paramref name="passwords"/>, user name to password.</summary>
    public void ConfigurePlain(string domain, IReadOnlyDictionary<string, string> passwords)
    {
        ArgumentNullException.ThrowIfNull(domain);
        ArgumentNullException.ThrowIfNull(passwords);
        foreach (var (user, password) in passwords)
        {
            if (user is null || password is null)
            {
                throw new ArgumentException("User names and passwords must not be null.", nameof(passwords));
            }
        }

        _policy.SetPasswords(domain, passwords);
    }

    /// <summary>Admits, in <paramref name="domain"/> (<c>"*"</c>: every domain), exactly the CURVE clients with these long-term public keys, in Z85 (40 characters).</summary>
    /// <exception cref="ArgumentException">A key is not 40 characters of Z85.</exception>
    public void ConfigureCurve(string domain, params string[] publicKeys)
    {
        ArgumentNullException.ThrowIfNull(domain);
        ArgumentNullException.ThrowIfNull(publicKeys);
        var keys = new List<byte[]>(publicKeys.Length);
        foreach (string key in publicKeys)
        {
            if (key is null || key.Length != 40)
            {
                throw new ArgumentException("A CURVE public key is 40 characters of Z85.", nameof(publicKeys));
            }

            keys.Add(Z85.Decode(key));
        }

        _policy.SetCurveKeys(domain, keys);
    }

    /// <summary>Admits, in <paramref name="domain"/>, every CURVE client that completes the handshake (encryption without authentication).</summary>
    public void ConfigureCurveAllowAny(string domain = ZapPolicy.AnyDomain)
    {
        ArgumentNullException.ThrowIfNull(domain);
        _policy.SetCurveKeys(domain, null);
    }

    /// <summary>Stops answering and unbinds the ZAP endpoint. Idempotent.</summary>
    public void Dispose()
    {
        if (Interlocked.Exchange(ref _disposed, 1) != 0)
        {
            return;
        }

        lock (_stopLock)
        {
            try
            {
                // One message on a fresh inproc pipe cannot meet the HWM; if it ever could not go, the thread would serve
                // on and Join would never return, so that is an error here, not a wait.
                if (!_stopSender.Send(ReadOnlySpan<byte>.Empty, SendFlags.DontWait))
                {
                    ThrowHelper.ThrowZmqException(ZmqConstants.EAGAIN);
                }
            }
            catch (ZmqException e) when (e.ErrorNumber == ZmqConstants.ETERM)
            {
                // The context is shut down: the thread has stopped, or stops now, with ETERM.
            }
            catch (ObjectDisposedException)
            {
                // The thread has ended and closed it.
            }
        }

        _thread.Join();
    }

    private static string[] CheckAddresses(string[] addresses)
    {
        ArgumentNullException.ThrowIfNull(addresses);
        foreach (string address in addresses)
        {
            ArgumentNullException.ThrowIfNull(address, nameof(addresses));
        }

        return addresses;
    }

    /// <summary>The handler thread: waits on requests and the stop signal; owns and closes both sockets.</summary>
    private void Serve()
    {
        try
        {
            using var poller = new Poller(2);
            poller.Add(_handler, PollEvents.In);
            poller.Add(_stopReceiver, PollEvents.In);
            while (true)
            {
                poller.Poll(-1);
                if (poller.IsReadable(1))
                {
                    // Requests already queued get an answer, so no handshake waits on a handler that is gone.
                    while ((_handler.GetOption<int>(SocketOption.Events) & (int)PollEvents.In) != 0)
                    {
                        Answer(stopping: true);
                    }

                    return;
                }

                if (poller.IsReadable(0))
                {
                    try
                    {
                        Answer(stopping: false);
                    }
                    catch (ZmqException e) when (e.ErrorNumber != ZmqConstants.ETERM)
                    {
                        // One request's failure (its requester gone, say) must not end the handler.
                    }
                }
            }
        }
        catch (ZmqException e) when (e.ErrorNumber == ZmqConstants.ETERM)
        {
            // The context was shut down under the authenticator.
        }
        finally
        {
            _handler.Dispose();
            _stopReceiver.Dispose();
            lock (_stopLock)
            {
                _stopSender.Dispose();
            }
        }
    }

    /// <summary>Receives one request and replies: the policy's decision, 500 while stopping or if deciding failed.</summary>
    private void Answer(bool stopping)
    {
        List<byte[]> request;
        using (var frames = _handler.RecvMultipart())
        {
            request = new List<byte[]>(frames.Count);
            for (int i = 0; i < frames.Count; i++)
            {
                request.Add(frames[i].ToArray());
                if (i >= FirstCredentialFrame)
                {
                    // The received buffer may be pooled: no password goes back to the pool.
                    CryptographicOperations.ZeroMemory(frames[i].Data);
                }
            }
        }

        ZapDecision decision;
        try
        {
            decision = stopping ? new ZapDecision("500", "Authenticator stopped", "") : _policy.Decide(request);
        }
        catch (Exception)
        {
            // RFC 27: 500 is the handler's own failure; the thread goes on serving.
            decision = new ZapDecision("500", "Internal error", "");
        }
        finally
        {
            for (int i = FirstCredentialFrame; i < request.Count; i++)
            {
                CryptographicOperations.ZeroMemory(request[i]);
            }
        }

        byte[] requestId = request.Count > 1 ? request[1] : [];
        _handler.SendMultipart(
        [
            Version,
            requestId,
            Encoding.ASCII.GetBytes(decision.StatusCode),
            Encoding.UTF8.GetBytes(decision.StatusText),
            Encoding.UTF8.GetBytes(decision.UserId),
            [],
        ]);
    }
}
