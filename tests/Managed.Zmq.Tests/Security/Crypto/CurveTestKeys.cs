namespace Managed.Zmq.Tests.Security.Crypto;

/// <summary>libzmq's documented CURVE test key pairs (from libzmq's CURVE documentation and tests).</summary>
internal static class CurveTestKeys
{
    public const string ClientPublicHex = "BB88471D65E2659B30C55A5321CEBB5AAB2B70A398645C26DCA2B2FCB43FC518";
    public const string ClientSecretHex = "7BB864B489AFA3671FBE69101F94B38972F24816DFB01B51656B3FEC8DFD0888";
    public const string ServerPublicHex = "54FCBA24E93249969316FB617C872BB0C1D1FF14800427C594CBFACF1BC2D652";
    public const string ServerSecretHex = "8E0BDD697628B91D8F245587EE95C5B04D48963F79259877B49CD9063AEAD3B7";

    public const string ClientPublicZ85 = "Yne@$w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hID";
    public const string ClientSecretZ85 = "D:)Q[IlAW!ahhC2ac:9*A}h:p?([4%wOTJ%JR%cs";
    public const string ServerPublicZ85 = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7";
    public const string ServerSecretZ85 = "JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6";

    public static byte[] ClientPublic => Convert.FromHexString(ClientPublicHex);

    public static byte[] ClientSecret => Convert.FromHexString(ClientSecretHex);

    public static byte[] ServerPublic => Convert.FromHexString(ServerPublicHex);

    public static byte[] ServerSecret => Convert.FromHexString(ServerSecretHex);
}
