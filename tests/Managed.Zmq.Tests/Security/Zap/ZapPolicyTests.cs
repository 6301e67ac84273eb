using System.Text;
using Managed.Zmq.Security;
using Managed.Zmq.Security.Zap;

namespace Managed.Zmq.Tests.Security.Zap;

/// <summary>The ZapAuthenticator's decisions on ZAP requests (RFC 27), without sockets.</summary>
public sealed class ZapPolicyTests
{
    private static readonly byte[] ClientKey = Enumerable.Range(1, 32).Select(i => (byte)i).ToArray();
    private static readonly byte[] OtherKey = Enumerable.Range(101, 32).Select(i => (byte)i).ToArray();

    [Fact]
    public void Decide_NullMechanismWithNoRules_Accepts()
    {
        var decision = new ZapPolicy().Decide(Request("global", "10.0.0.1", "NULL"));

        Assert.Equal(ZapDecision.Accept(""), decision);
    }

    [Fact]
    public void Decide_DeniedAddress_RefusesWith400()
    {
        var policy = new ZapPolicy();
        policy.Deny(["10.0.0.1"]);

        Assert.Equal("400", policy.Decide(Request("", "10.0.0.1", "NULL")).StatusCode);
        Assert.Equal("200", policy.Decide(Request("", "10.0.0.2", "NULL")).StatusCode);
    }

    [Fact]
    public void Decide_AllowListSet_AdmitsOnlyItsAddressesWhateverTheDenyList()
    {
        var policy = new ZapPolicy();
        policy.Allow(["10.0.0.1"]);
        policy.Deny(["10.0.0.1", "10.0.0.2"]);

        Assert.Equal("200", policy.Decide(Request("", "10.0.0.1", "NULL")).StatusCode);
        Assert.Equal(ZapDecision.Deny("Address not allowed"), policy.Decide(Request("", "10.0.0.3", "NULL")));
    }

    [Fact]
    public void Decide_PlainWithTheRightPassword_AcceptsWithTheUserNameAsUserId()
    {
        var policy = new ZapPolicy();
        policy.SetPasswords("*", new Dictionary<string, string> { ["admin"] = "secret" });

        var decision = policy.Decide(Request("any", "10.0.0.1", "PLAIN", "admin"u8.ToArray(), "secret"u8.ToArray()));

        Assert.Equal(ZapDecision.Accept("admin"), decision);
    }

    [Theory]
    [InlineData("admin", "wrong")]
    [InlineData("admin", "secre")]
    [InlineData("admin", "")]
    [InlineData("nobody", "secret")]
    public void Decide_PlainWithAWrongUserOrPassword_Refuses(string user, string password)
    {
        var policy = new ZapPolicy();
        policy.SetPasswords("*", new Dictionary<string, string> { ["admin"] = "secret" });

        var decision = policy.Decide(Request("any", "10.0.0.1", "PLAIN", Encoding.UTF8.GetBytes(user), Encoding.UTF8.GetBytes(password)));

        Assert.Equal(ZapDecision.Deny("Invalid username or password"), decision);
    }

    [Fact]
    public void Decide_PlainDomainRules_TakePrecedenceOverTheAnyDomainRules()
    {
        var policy = new ZapPolicy();
        policy.SetPasswords("*", new Dictionary<string, string> { ["admin"] = "everywhere" });
        policy.SetPasswords("billing", new Dictionary<string, string> { ["admin"] = "billing-only" });

        Assert.Equal("400", policy.Decide(Request("billing", "a", "PLAIN", "admin"u8.ToArray(), "everywhere"u8.ToArray())).StatusCode);
        Assert.Equal("200", policy.Decide(Request("billing", "a", "PLAIN", "admin"u8.ToArray(), "billing-only"u8.ToArray())).StatusCode);
        Assert.Equal("200", policy.Decide(Request("other", "a", "PLAIN", "admin"u8.ToArray(), "everywhere"u8.ToArray())).StatusCode);
    }

    [Fact]
    public void Decide_PlainOrCurveWithNoRules_Refuses()
    {
        var policy = new ZapPolicy();

        Assert.Equal(ZapDecision.Deny("No passwords defined"), policy.Decide(Request("", "a", "PLAIN", "u"u8.ToArray(), "p"u8.ToArray())));
        Assert.Equal(ZapDecision.Deny("No CURVE keys defined"), policy.Decide(Request("", "a", "CURVE", ClientKey)));
    }

    [Fact]
    public void Decide_CurveWithAnAllowedKey_AcceptsWithTheZ85KeyAsUserId()
    {
        var policy = new ZapPolicy();
        policy.SetCurveKeys("*", [ClientKey]);

        Assert.Equal(ZapDecision.Accept(Z85.Encode(ClientKey)), policy.Decide(Request("", "a", "CURVE", ClientKey)));
        Assert.Equal(ZapDecision.Deny("Unknown key"), policy.Decide(Request("", "a", "CURVE", OtherKey)));
    }

    [Fact]
    public void Decide_CurveAllowAny_AcceptsEveryKeyButStillFiltersAddresses()
    {
        var policy = new ZapPolicy();
        policy.SetCurveKeys("*", null);
        policy.Deny(["10.9.9.9"]);

        Assert.Equal("200", policy.Decide(Request("", "a", "CURVE", OtherKey)).StatusCode);
        Assert.Equal("400", policy.Decide(Request("", "10.9.9.9", "CURVE", OtherKey)).StatusCode);
    }

    [Fact]
    public void Decide_MalformedRequests_Refuse()
    {
        var policy = new ZapPolicy();
        policy.SetCurveKeys("*", null);
        policy.SetPasswords("*", new Dictionary<string, string> { ["u"] = "p" });
        var wrongVersion = Request("", "a", "NULL");
        wrongVersion[0] = "2.0"u8.ToArray();

        Assert.Equal("400", policy.Decide(wrongVersion).StatusCode);
        Assert.Equal("400", policy.Decide(Request("", "a", "NULL").Take(5).ToArray()).StatusCode);
        Assert.Equal("400", policy.Decide(Request("", "a", "CURVE", new byte[31])).StatusCode);
        Assert.Equal("400", policy.Decide(Request("", "a", "PLAIN", "u"u8.ToArray())).StatusCode);
        Assert.Equal(ZapDecision.Deny("Unsupported mechanism"), policy.Decide(Request("", "a", "GSSAPI")));
    }

    private static byte[][] Request(string domain, string address, string mechanism, params byte[][] credentials) =>
        [
            "1.0"u8.ToArray(),
            "1"u8.ToArray(),
            Encoding.UTF8.GetBytes(domain),
            Encoding.ASCII.GetBytes(address),
            "id"u8.ToArray(),
            Encoding.ASCII.GetBytes(mechanism),
            .. credentials,
        ];
}
