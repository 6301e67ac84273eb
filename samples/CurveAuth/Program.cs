// CURVE: encryption and authentication by public key, with a ZapAuthenticator (docs/security.md).
using Managed.Zmq;

string keyDirectory = args.Length > 0 ? args[0] : Path.Combine(Path.GetTempPath(), $"curve-keys-{Environment.ProcessId}");

// 1. Keys: each side has a long-term key pair, 40 characters of Z85 each. Generate them once,
//    store the secret key readable by its owner only, and hand out public keys freely.
KeyPair serverKeys = KeyStore.LoadOrCreate(keyDirectory, "server");
KeyPair clientKeys = KeyStore.LoadOrCreate(keyDirectory, "client");
Console.WriteLine($"server public key: {serverKeys.Public.Length} characters of Z85");

using var context = new Context();

// 2. Server side: the authenticator admits exactly the client public keys it is given.
using var auth = new ZapAuthenticator(context);
auth.ConfigureCurve("*", clientKeys.Public); // or auth.ConfigureCurveAllowAny() for encryption only

using var server = new Socket(context, SocketType.Rep);
server.SetOption(SocketOption.Curve_Server, 1);
server.SetOption(SocketOption.Curve_Secretkey, serverKeys.Secret); // the server needs only its secret key
server.SetOption(SocketOption.Rcvtimeo, 5000);
server.Bind("tcp://127.0.0.1:*");
string endpoint = server.GetOptionString(SocketOption.Last_Endpoint);

// 3. Client side: its own key pair, and the server's public key, obtained out of band.
using var client = new Socket(context, SocketType.Req);
client.SetOption(SocketOption.Curve_Serverkey, serverKeys.Public);
client.SetOption(SocketOption.Curve_Publickey, clientKeys.Public);
client.SetOption(SocketOption.Curve_Secretkey, clientKeys.Secret);
client.SetOption(SocketOption.Rcvtimeo, 5000);
client.Connect(endpoint);

client.Send("encrypted hello");
Console.WriteLine($"server got: {server.RecvString()}");
server.Send("encrypted reply");
Console.WriteLine($"client got: {client.RecvString()}");

if (args.Length == 0)
{
    Directory.Delete(keyDirectory, recursive: true);
}

/// <summary>A CURVE key pair in Z85 text.</summary>
internal sealed record KeyPair(string Public, string Secret);

/// <summary>Key storage: NAME.key (public) and NAME.key_secret (secret, mode 0600) in one directory.</summary>
internal static class KeyStore
{
    public static KeyPair LoadOrCreate(string directory, string name)
    {
        string publicPath = Path.Combine(directory, name + ".key");
        string secretPath = Path.Combine(directory, name + ".key_secret");
        if (File.Exists(secretPath))
        {
            string secret = File.ReadAllText(secretPath).Trim();
            // The public key follows from the secret one: a stored public key is only a convenience.
            return new KeyPair(Curve.DerivePublicKey(secret), secret);
        }

        Directory.CreateDirectory(directory);
        var (publicKey, secretKey) = Curve.GenerateKeypair();
        File.WriteAllText(publicPath, publicKey + "\n");
        // Create the secret file with owner-only permissions before the key is written into it.
        var options = new FileStreamOptions { Mode = FileMode.CreateNew, Access = FileAccess.Write };
        if (!OperatingSystem.IsWindows())
        {
            options.UnixCreateMode = UnixFileMode.UserRead | UnixFileMode.UserWrite;
        }

        using (var writer = new StreamWriter(secretPath, System.Text.Encoding.ASCII, options))
        {
            writer.WriteLine(secretKey);
        }

        return new KeyPair(publicKey, secretKey);
    }
}
