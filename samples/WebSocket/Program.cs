// ws:// and wss:// (docs/ws.md): ZeroMQ over WebSocket, and over WebSocket inside TLS, as libzmq's draft
// transports. The certificate here is made on the spot; a real server loads its own PEM files.
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using Managed.Zmq;

using var context = new Context();

// ws://: host, port and an optional path, as libzmq; "*" picks a free port.
using (var server = new Socket(context, SocketType.Rep))
using (var client = new Socket(context, SocketType.Req))
{
    server.Bind("ws://127.0.0.1:*/hello");
    client.Connect(server.GetOptionString(SocketOption.Last_Endpoint));
    client.Send("over ws");
    Console.WriteLine($"ws server got: {server.RecvString()}");
    server.Send("ws reply");
    Console.WriteLine($"ws client got: {client.RecvString()}");
}

// wss://: the listener presents a certificate and key (PEM); the client trusts a PEM root and checks a name.
using var key = ECDsa.Create(ECCurve.NamedCurves.nistP256);
var request = new CertificateRequest("CN=localhost", key, HashAlgorithmName.SHA256);
var names = new SubjectAlternativeNameBuilder();
names.AddDnsName("localhost");
request.CertificateExtensions.Add(names.Build());
using var certificate = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddMinutes(-5), DateTimeOffset.UtcNow.AddDays(1));
string certificatePem = certificate.ExportCertificatePem();
string keyPem = key.ExportPkcs8PrivateKeyPem();

using var secureServer = new Socket(context, SocketType.Rep);
secureServer.SetOption(SocketOption.Wss_Cert_Pem, certificatePem);
secureServer.SetOption(SocketOption.Wss_Key_Pem, keyPem);
secureServer.Bind("wss://127.0.0.1:*/secure");

using var secureClient = new Socket(context, SocketType.Req);
secureClient.SetOption(SocketOption.Wss_Trust_Pem, certificatePem); // whom the client trusts
secureClient.SetOption(SocketOption.Wss_Hostname, "localhost");     // the name the certificate must carry
secureClient.Connect(secureServer.GetOptionString(SocketOption.Last_Endpoint));

secureClient.Send("over wss");
Console.WriteLine($"wss server got: {secureServer.RecvString()}");
secureServer.Send("wss reply");
Console.WriteLine($"wss client got: {secureClient.RecvString()}");
