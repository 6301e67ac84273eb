namespace Managed.Zmq.Tests.Security.Crypto;

/// <summary>The box/secretbox/stream test values of "Cryptography in NaCl" (as used by NaCl's and libsodium's test suites).</summary>
internal static class NaClVectors
{
    public const string AliceSecret = "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a";
    public const string AlicePublic = "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a";
    public const string BobSecret = "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb";
    public const string BobPublic = "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f";
    public const string Shared = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742";

    /// <summary>crypto_box_beforenm(Bob public, Alice secret) = HSalsa20(shared, 0) ("firstkey").</summary>
    public const string FirstKey = "1b27556473e985d462cd51197a9a46c76009549eac6474f206c4ee0844f68389";

    /// <summary>HSalsa20(firstkey, nonce[0..16]) ("secondkey").</summary>
    public const string SecondKey = "dc908dda0b9344a953629b733820778880f3ceb421bb61b91cbd4c3e66256ce4";

    public const string Nonce = "69696ee955b62b73cd62bda875fc73d68219e0036b7a0b37";

    public const string Message =
        "be075fc53c81f2d5cf141316ebeb0c7b5228c52a4c62cbd44b66849b64244ffc" +
        "e5ecbaaf33bd751a1ac728d45e6c61296cdc3c01233561f41db66cce314adb31" +
        "0e3be8250c46f06dceea3a7fa1348057e2f6556ad6b1318a024a838f21af1fde" +
        "048977eb48f59ffd4924ca1c60902e52f0a089bc76897040e082f93776384864" +
        "5e0705";

    /// <summary>MAC (16) ‖ ciphertext (131): crypto_box_easy's layout.</summary>
    public const string Box =
        "f3ffc7703f9400e52a7dfb4b3d3305d9" +
        "8e993b9f48681273c29650ba32fc76ce48332ea7164d96a4476fb8c531a1186a" +
        "c0dfc17c98dce87b4da7f011ec48c97271d2c20f9b928fe2270d6fb863d51738" +
        "b48eeee314a7cc8ab932164548e526ae90224368517acfeabd6bb3732bc0e9da" +
        "99832b61ca01b6de56244a9e88d5f9b37973f622a43d14a6599b1f654cb45a74" +
        "e355a5";

    /// <summary>The first 32 octets of the XSalsa20 stream under firstkey and the nonce: the Poly1305 key ("rs").</summary>
    public const string OneTimeAuthKey = "eea6a7251c1e72916d11c2cb214d3c252539121d8e234e652d651fa4c8cff880";
}
