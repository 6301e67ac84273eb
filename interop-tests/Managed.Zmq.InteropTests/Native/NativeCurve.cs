using System.Text;

namespace Managed.Zmq.InteropTests.Native;

/// <summary>libzmq's own CURVE key generation and Z85 codec, to cross-check ours.</summary>
internal static unsafe class NativeCurve
{
    /// <summary>True when this libzmq was built with CURVE (zmq_has("curve")).</summary>
    public static bool Available => LibZmq.zmq_has("curve") == 1;

    /// <summary>zmq_curve_keypair: a fresh key pair as two 40-character Z85 strings.</summary>
    public static (string PublicKey, string SecretKey) Keypair()
    {
        var publicKey = stackalloc byte[41];
        var secretKey = stackalloc byte[41];
        if (LibZmq.zmq_curve_keypair(publicKey, secretKey) != 0)
            throw new NativeZmqException("zmq_curve_keypair", LibZmq.zmq_errno());
        return (Encoding.ASCII.GetString(publicKey, 40), Encoding.ASCII.GetString(secretKey, 40));
    }

    public static string Z85Encode(byte[] data)
    {
        var dest = new byte[data.Length * 5 / 4 + 1];
        fixed (byte* d = dest)
        fixed (byte* s = data)
        {
            if (LibZmq.zmq_z85_encode(d, s, (nuint)data.Length) is null)
                throw new NativeZmqException("zmq_z85_encode", LibZmq.zmq_errno());
        }

        return Encoding.ASCII.GetString(dest, 0, dest.Length - 1);
    }

    public static byte[] Z85Decode(string text)
    {
        var source = Encoding.ASCII.GetBytes(text + "\0");
        var dest = new byte[text.Length * 4 / 5];
        fixed (byte* d = dest)
        fixed (byte* s = source)
        {
            if (LibZmq.zmq_z85_decode(d, s) is null)
                throw new NativeZmqException("zmq_z85_decode", LibZmq.zmq_errno());
        }

        return dest;
    }
}
