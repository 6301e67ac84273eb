using System.Text.RegularExpressions;

namespace Managed.Zmq.Samples.Tests;

/// <summary>
/// Every C# snippet in README.md and docs/*.md is an excerpt of a sample (line for line, ignoring
/// indentation), so every snippet a reader copies has been compiled and run.
/// </summary>
public sealed partial class DocSnippetTests
{
    [GeneratedRegex(@"^```(?:csharp|cs|c#)[ \t]*\r?\n(.*?)^```", RegexOptions.Multiline | RegexOptions.Singleline)]
    private static partial Regex CSharpBlock();

    public static TheoryData<string> Documents()
    {
        var data = new TheoryData<string>();
        data.Add("README.md");
        foreach (string path in Directory.GetFiles(Path.Combine(SampleRunner.RepositoryRoot, "docs"), "*.md"))
        {
            data.Add(Path.GetRelativePath(SampleRunner.RepositoryRoot, path));
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Documents))]
    public void Document_CSharpSnippets_AreExcerptsOfSamples(string document)
    {
        string[] samples = Directory.GetFiles(Path.Combine(SampleRunner.RepositoryRoot, "samples"), "*.cs", SearchOption.AllDirectories)
            .Where(path => !path.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}", StringComparison.Ordinal))
            .Select(path => Normalize(File.ReadAllText(path)))
            .ToArray();
        string text = File.ReadAllText(Path.Combine(SampleRunner.RepositoryRoot, document));

        foreach (Match block in CSharpBlock().Matches(text))
        {
            string snippet = Normalize(block.Groups[1].Value);
            Assert.True(
                samples.Any(sample => sample.Contains(snippet, StringComparison.Ordinal)),
                $"{document}: this snippet is not an excerpt of any samples/**/*.cs file:\n{block.Groups[1].Value}");
        }
    }

    /// <summary>Trims each line and drops blank ones, so a snippet may be re-indented or spaced.</summary>
    private static string Normalize(string code) =>
        "\n" + string.Join('\n', code.Split('\n').Select(line => line.Trim()).Where(line => line.Length > 0)) + "\n";
}
