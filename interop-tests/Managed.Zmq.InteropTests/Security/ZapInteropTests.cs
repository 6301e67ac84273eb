using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests.Security;

/// <summary>Which mechanism a ZAP scenario runs.</summary>
public enum Mechanism
{
    Null,
    Plain,
    Curve,
}

/// <summary>
/// ZAP (RFC 27) with the handler on our side (our server, our handler) and on libzmq's (libzmq
/// server, a handler thread in libzmq's context), for NULL with a ZAP domain, PLAIN and CURVE.
/// 200 accepts. 400 makes the server send ERROR "400": the client reports HANDSHAKE_FAILED_AUTH/400
/// and does not retry (docs/libzmq-behaviour.md L7, docs/libzmq-behaviour.md L15). 300 refuses without ERROR, so the client never reports AUTH (docs/libzmq-behaviour.md L7–L9).
/// The server reports HANDSHAKE_FAILED_AUTH with the status for every refusal.
/// </summary>
public sealed class ZapInteropTests
{
    private const string Domain = "interop-domain";
    private const string User = "admin";
    private const string Password = "s3cret";
    private static readonly byte[] ServerRoutingId = Bytes.Of("zap-server-id");
    private static readonly TimeSpan Quiet = TimeSpan.FromMilliseconds(500);

    public static TheoryData<Mechanism, OurRole, int> StatusCases()
    {
        var data = new TheoryData<Mechanism, OurRole, int>();
        foreach (var mechanism in Enum.GetValues<Mechanism>())
        {
            foreach (var role in Enum.GetValues<OurRole>())
            {
                foreach (var status in new[] { 200, 300, 400 })
                    data.Add(mechanism, role, status);
            }
        }

        return data;
    }

    public static TheoryData<OurRole> Roles => SecureCases.Roles();

    private static SecureLink Make(Mechanism mechanism, OurRole role, Func<byte[][], ZapAnswer> zap,
        string password = Password, CurveKeys? clientKeys = null)
    {
        var serverKeys = CurveKeys.New();
        clientKeys ??= CurveKeys.New();
        var topology = role == OurRole.Server ? Topology.ManagedBinds : Topology.NativeBinds;
        return new SecureLink(topology, role, SocketType.Pull, SocketType.Push,
            end =>
            {
                end.SetOption(LibZmq.ZMQ_ROUTING_ID, ServerRoutingId);
                Secure.SetString(end, LibZmq.ZMQ_ZAP_DOMAIN, Domain);
                Secure.Server(end, mechanism, serverKeys);
            },
            end => Secure.Client(end, mechanism, User, password, clientKeys, serverKeys),
            zap);
    }

    [Theory, MemberData(nameof(StatusCases))]
    public Task Zap_HandlerStatus_IsHonouredByBothSides(Mechanism mechanism, OurRole role, int status) => Deadline.Run(() =>
    {
        var clientKeys = CurveKeys.New();
        using var link = Make(mechanism, role, _ => ZapAnswer.Of(status), clientKeys: clientKeys);

        // A refusal is final on both libzmq and ours: the client's pipe ends with the failed session
        // (docs/libzmq-behaviour.md L7, docs/libzmq-behaviour.md L15), so a send may find no pipe left if the refusal already came back; only an
        // accepted client must take the message.
        if (status == 200)
        {
            link.Client.SendMessage(Bytes.Of("payload"));
        }
        else
        {
            link.Client.TrySendMessage(Bytes.Of("payload"));
        }

        // docs/libzmq-behaviour.md L21: "1.0", request id "1", domain, peer IP (no port), the server socket's own routing id,
        // mechanism, then the credentials.
        var request = link.Zap!.WaitForRequest();
        var name = mechanism.ToString().ToUpperInvariant();
        byte[][] expected = mechanism switch
        {
            Mechanism.Plain => [.. Head(name), Bytes.Of(User), Bytes.Of(Password)],
            Mechanism.Curve => [.. Head(name), clientKeys.Public],
            _ => Head(name),
        };
        Bytes.Equal(expected, request, $"ZAP request from the {role} side's server");

        if (status == 200)
        {
            Bytes.Equal([Bytes.Of("payload")], link.Server.RecvMessage(), "message after ZAP 200");
            link.ServerEvents.WaitFor(EventLog.HandshakeSucceeded);
            link.ClientEvents.WaitFor(EventLog.HandshakeSucceeded);
            return;
        }

        link.ServerEvents.WaitFor(EventLog.HandshakeFailedAuth, status);
        if (status == 400)
        {
            link.ClientEvents.WaitFor(EventLog.HandshakeFailedAuth, 400);
        }
        else
        {
            // 300: no ERROR goes back, so the client has no status to report.
            link.ClientEvents.AssertNone(e => e.Event == EventLog.HandshakeFailedAuth, Quiet, "HANDSHAKE_FAILED_AUTH after ZAP 300");
        }

        Assert.Null(link.Server.TryRecvMessage(Quiet));
        link.ServerEvents.AssertNone(e => e.Event == EventLog.HandshakeSucceeded, TimeSpan.Zero, "handshake success");
        link.ClientEvents.AssertNone(e => e.Event == EventLog.HandshakeSucceeded, TimeSpan.Zero, "handshake success");
        if (status == 400)
        {
            // After ERROR the client does not reconnect with the same credentials (docs/libzmq-behaviour.md L7, docs/libzmq-behaviour.md L15). Its own
            // connections are checked first, so a failure says whether this client came back or
            // another connection reached the server's port.
            Assert.True(link.ClientEvents.Count(EventLog.Connected) + link.ClientEvents.Count(EventLog.Accepted) == 1,
                $"the client connected more than once; client saw {link.ClientEvents}, server saw {link.ServerEvents}");
            Assert.True(link.Zap.RequestCount == 1,
                $"{link.Zap.RequestCount} ZAP requests from one client connection; server saw {link.ServerEvents}");
        }

        static byte[][] Head(string mechanismName) =>
            [Bytes.Of("1.0"), Bytes.Of("1"), Bytes.Of(Domain), Bytes.Of("127.0.0.1"), ServerRoutingId, Bytes.Of(mechanismName)];
    });

    [Theory]
    [InlineData(OurRole.Server, true)]
    [InlineData(OurRole.Server, false)]
    [InlineData(OurRole.Client, true)]
    [InlineData(OurRole.Client, false)]
    public Task Plain_Password_GoodAcceptedBadRefused(OurRole role, bool good) => Deadline.Run(() =>
    {
        using var link = Make(Mechanism.Plain, role,
            request => request.Length == 8 && Bytes.Text(request[6]) == User && Bytes.Text(request[7]) == Password
                ? ZapAnswer.Accept : ZapAnswer.Of(400),
            password: good ? Password : "wrong");
        if (good)
        {
            link.Client.SendMessage(Bytes.Of("payload"));
            Bytes.Equal([Bytes.Of("payload")], link.Server.RecvMessage(), "PLAIN with the right password");
            return;
        }

        // A refused client's connection ends for good (docs/libzmq-behaviour.md L15) and takes its pipe with it, so once the
        // handshake has failed a send finds no peer and would block: it may only be attempted.
        link.Client.TrySendMessage(Bytes.Of("payload"));

        link.ClientEvents.WaitFor(EventLog.HandshakeFailedAuth, 400);
        link.ServerEvents.WaitFor(EventLog.HandshakeFailedAuth, 400);
        Assert.Null(link.Server.TryRecvMessage(Quiet));
    });

    [Theory, MemberData(nameof(Roles))]
    public Task Plain_ServerWithoutZapHandler_RefusesEveryone(OurRole role) => Deadline.Run(() =>
    {
        // docs/libzmq-behaviour.md L8: with no handler bound, a PLAIN server reports HANDSHAKE_FAILED_NO_DETAIL (EFAULT) and closes.
        const int efault = 14;
        using var link = Make(Mechanism.Plain, role, zap: null!);
        link.Client.SendMessage(Bytes.Of("payload"));
        link.ServerEvents.WaitFor(EventLog.HandshakeFailedNoDetail, efault);
        Assert.Null(link.Server.TryRecvMessage(Quiet));
        link.ServerEvents.AssertNone(e => e.Event == EventLog.HandshakeSucceeded, TimeSpan.Zero, "handshake success");
    });

    [Theory, MemberData(nameof(Roles))]
    public Task Null_ZapDomainWithoutHandler_Accepts(OurRole role) => Deadline.Run(() =>
    {
        using var link = Make(Mechanism.Null, role, zap: null!);
        link.Client.SendMessage(Bytes.Of("payload"));
        Bytes.Equal([Bytes.Of("payload")], link.Server.RecvMessage(), "NULL with a ZAP domain and no handler");
    });

    [Theory, MemberData(nameof(Roles))]
    public Task Curve_NoZapHandler_AcceptsAnyClient(OurRole role) => Deadline.Run(() =>
    {
        // docs/libzmq-behaviour.md L9 "Stonehouse": encryption without authentication when nobody answers ZAP.
        using var link = Make(Mechanism.Curve, role, zap: null!);
        link.Client.SendMessage(Bytes.Of("payload"));
        Bytes.Equal([Bytes.Of("payload")], link.Server.RecvMessage(), "CURVE with no ZAP handler");
    });
}
