using System.Reflection;
using System.Reflection.Emit;

namespace Managed.Zmq.Tests.Architecture;

/// <summary>
/// Finds which of an assembly's own types each type uses: base type, interfaces, fields, properties,
/// events, method signatures, locals, and the type, method and field operands in method bodies (read
/// from the IL bytes and resolved through the module). A nested type (an async state machine, a
/// lambda's display class, a private helper) counts for its outermost declaring type.
/// </summary>
/// <remarks>
/// Blind spots, by nature of compiled code: a <c>const</c> is inlined as a literal and an enum member
/// as its number, so reading either leaves no reference; <c>nameof</c> and doc comments leave none.
/// </remarks>
internal static class TypeReferenceScanner
{
    private const BindingFlags All = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance
        | BindingFlags.Static | BindingFlags.DeclaredOnly;

    private static readonly OpCode[] OneByte = new OpCode[0x100];
    private static readonly OpCode[] TwoByte = new OpCode[0x100];

    static TypeReferenceScanner()
    {
        foreach (FieldInfo field in typeof(OpCodes).GetFields(BindingFlags.Public | BindingFlags.Static))
        {
            var code = (OpCode)field.GetValue(null)!;
            ushort value = unchecked((ushort)code.Value);
            if (value < 0x100)
            {
                OneByte[value] = code;
            }
            else if ((value & 0xFF00) == 0xFE00)
            {
                TwoByte[value & 0xFF] = code;
            }
        }
    }

    /// <summary>The outermost declaring type: what a nested type's references count for.</summary>
    public static Type Owner(Type type)
    {
        while (type.DeclaringType is { } outer)
        {
            type = outer;
        }

        return type;
    }

    /// <summary>
    /// Every type of <paramref name="owner"/>'s assembly (as outermost owners) that the type or any type
    /// nested in it uses, the owner itself left out.
    /// </summary>
    public static HashSet<Type> ReferencesOf(Type owner)
    {
        var found = new HashSet<Type>();
        var pending = new Stack<Type>();
        pending.Push(owner);
        while (pending.Count > 0)
        {
            Type type = pending.Pop();
            foreach (Type nested in type.GetNestedTypes(All))
            {
                pending.Push(nested);
            }

            Scan(type, found);
        }

        found.Remove(Owner(owner));
        return found;
    }

    private static void Scan(Type type, HashSet<Type> found)
    {
        Assembly home = type.Assembly;

        void Add(Type? t)
        {
            if (t is null)
            {
                return;
            }

            if (t.HasElementType)
            {
                Add(t.GetElementType());
                return;
            }

            if (t.IsGenericParameter)
            {
                return;
            }

            if (t.IsGenericType && !t.IsGenericTypeDefinition)
            {
                Add(t.GetGenericTypeDefinition());
                foreach (Type argument in t.GetGenericArguments())
                {
                    Add(argument);
                }

                return;
            }

            // The compiler's own helpers (<PrivateImplementationDetails>, collection-expression types) have no namespace.
            if (t.Assembly == home && !string.IsNullOrEmpty(t.Namespace))
            {
                found.Add(Owner(t));
            }
        }

        Add(type.BaseType);
        foreach (Type contract in type.GetInterfaces())
        {
            Add(contract);
        }

        foreach (FieldInfo field in type.GetFields(All))
        {
            Add(field.FieldType);
        }

        foreach (PropertyInfo property in type.GetProperties(All))
        {
            Add(property.PropertyType);
        }

        foreach (EventInfo e in type.GetEvents(All))
        {
            Add(e.EventHandlerType);
        }

        var bodies = new List<MethodBase>();
        bodies.AddRange(type.GetMethods(All));
        bodies.AddRange(type.GetConstructors(All));
        foreach (MethodBase method in bodies)
        {
            if (method is MethodInfo info)
            {
                Add(info.ReturnType);
            }

            foreach (ParameterInfo parameter in method.GetParameters())
            {
                Add(parameter.ParameterType);
            }

            MethodBody? body = method.GetMethodBody();
            if (body is null)
            {
                continue;
            }

            foreach (LocalVariableInfo local in body.LocalVariables)
            {
                Add(local.LocalType);
            }

            foreach (MemberInfo member in OperandsOf(method, body))
            {
                switch (member)
                {
                    case Type t:
                        Add(t);
                        break;
                    case MethodBase m:
                        Add(m.DeclaringType);
                        if (m.IsGenericMethod)
                        {
                            foreach (Type argument in m.GetGenericArguments())
                            {
                                Add(argument);
                            }
                        }

                        break;
                    case FieldInfo f:
                        Add(f.DeclaringType);
                        break;
                }
            }
        }

    }

    /// <summary>The members named by the type, method, field and token operands of a method body.</summary>
    public static IEnumerable<MemberInfo> OperandsOf(MethodBase method, MethodBody body)
    {
        byte[]? il = body.GetILAsByteArray();
        if (il is null)
        {
            yield break;
        }

        Type[]? typeArguments = method.DeclaringType is { IsGenericType: true } declaring
            ? declaring.GetGenericArguments()
            : null;
        Type[]? methodArguments = method is MethodInfo { IsGenericMethod: true } generic
            ? generic.GetGenericArguments()
            : null;
        Module module = method.Module;

        int i = 0;
        while (i < il.Length)
        {
            OpCode code;
            byte first = il[i++];
            if (first == 0xFE)
            {
                code = TwoByte[il[i++]];
            }
            else
            {
                code = OneByte[first];
            }

            switch (code.OperandType)
            {
                case OperandType.InlineNone:
                    break;
                case OperandType.ShortInlineBrTarget:
                case OperandType.ShortInlineI:
                case OperandType.ShortInlineVar:
                    i += 1;
                    break;
                case OperandType.InlineVar:
                    i += 2;
                    break;
                case OperandType.InlineI8:
                case OperandType.InlineR:
                    i += 8;
                    break;
                case OperandType.InlineSwitch:
                    int targets = BitConverter.ToInt32(il, i);
                    i += 4 + (4 * targets);
                    break;
                case OperandType.InlineField:
                case OperandType.InlineMethod:
                case OperandType.InlineType:
                case OperandType.InlineTok:
                    int token = BitConverter.ToInt32(il, i);
                    i += 4;
                    yield return module.ResolveMember(token, typeArguments, methodArguments)!;
                    break;
                default:
                    // InlineI, InlineBrTarget, InlineSig, InlineString, ShortInlineR.
                    i += 4;
                    break;
            }
        }
    }

    /// <summary>The outermost types of <paramref name="assembly"/> that live in a namespace (not the compiler's own).</summary>
    public static IEnumerable<Type> OwnersOf(Assembly assembly) =>
        assembly.GetTypes().Where(t => t.DeclaringType is null && !string.IsNullOrEmpty(t.Namespace));
}
