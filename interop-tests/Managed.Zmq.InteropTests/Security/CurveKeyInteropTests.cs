using Managed.Zmq.InteropTests.Infrastructure;
using Managed.Zmq.InteropTests.Native;

namespace Managed.Zmq.InteropTests.Security;

/// <summary>Where a scenario's CURVE keys come from.</summary>
public enum KeySource
{
    /// <summary>Curve.GenerateKeypair (ours).</summary>
    Ours,

    /// <summary>zmq_curve_keypair (libzmq).</summary>
    Libzmq,
}

/// <summary>
/// Keys made by either library work in both roles, set as 40-character Z85 text or as 32 raw bytes,
/// and our Z85 agrees with libzmq's.
/// </summary>
public sealed class CurveKeyInteropTests
{
    public static TheoryData<KeySource, bool, OurRole> KeyCases()
    {
        var data = new TheoryData<KeySource, bool, OurRole>();
        foreach (var source in Enum.GetValues<KeySource>())
        {
            foreach (var raw in new[] { false, true })
            {
                foreach (var role in Enum.GetValues<OurRole>())
                    data.Add(source, raw, role);
            }
        }

        return data;
    }

    private static CurveKeys Generate(KeySource source)
    {
        if (source == KeySource.Libzmq)
            return CurveKeys.New();
        var (pub, sec) = Curve.GenerateKeypair();
        return new CurveKeys(pub, sec);
    }

    [Theory, MemberData(nameof(KeyCases))]
    public Task Curve_GeneratedKeys_AcceptedByBothLibraries(KeySource source, bool raw, OurRole role) => Deadline.Run(() =>
    {
        var serverKeys = Generate(source);
        var clientKeys = Generate(source);
        Assert.Equal(40, serverKeys.PublicZ85.Length);
        Assert.Equal(40, serverKeys.SecretZ85.Length);
        using var link = new SecureLink(Topology.ManagedBinds, role, SocketType.Rep, SocketType.Req,
            end => Secure.CurveServer(end, serverKeys, raw),
            end => Secure.CurveClient(end, clientKeys, serverKeys.PublicZ85, raw));

        Transfer.Deliver(link.Client, link.Server, [Bytes.Of("request")]);
        Transfer.Deliver(link.Server, link.Client, [Bytes.Of("reply")]);
    });

    [Fact]
    public void Curve_KeypairFromEitherLibrary_PublicKeyDerivesFromSecret()
    {
        var (ourPublic, ourSecret) = Curve.GenerateKeypair();
        var (theirPublic, theirSecret) = NativeCurve.Keypair();
        Assert.Equal(ourPublic, Curve.DerivePublicKey(ourSecret));
        Assert.Equal(theirPublic, Curve.DerivePublicKey(theirSecret));
    }

    [Fact]
    public void Z85_KeysFromEitherLibrary_EncodeAndDecodeIdentically()
    {
        var (theirPublic, _) = NativeCurve.Keypair();
        var (ourPublic, _) = Curve.GenerateKeypair();
        foreach (var text in new[] { theirPublic, ourPublic })
        {
            var raw = Z85.Decode(text);
            Assert.Equal(NativeCurve.Z85Decode(text), raw);
            Assert.Equal(text, NativeCurve.Z85Encode(raw));
            Assert.Equal(text, Z85.Encode(raw));
        }
    }
}
