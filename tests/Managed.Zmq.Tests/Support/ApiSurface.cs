using System.Reflection;

namespace Managed.Zmq.Tests.Support;

/// <summary>Counts a type's public members as Net.Zmq's surface is counted: properties once, accessors not at all.</summary>
internal static class ApiSurface
{
    public static int CountPublicMembers(Type type) =>
        type.GetMembers(BindingFlags.Public | BindingFlags.Instance | BindingFlags.Static | BindingFlags.DeclaredOnly)
            .Count(m => m is not MethodInfo { IsSpecialName: true } method
                || !(method.Name.StartsWith("get_", StringComparison.Ordinal)
                    || method.Name.StartsWith("set_", StringComparison.Ordinal)));
}
