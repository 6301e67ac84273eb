namespace Managed.Zmq.Perf;

internal static class Program
{
    private static int Main(string[] args)
    {
        return 0;
    }
}
