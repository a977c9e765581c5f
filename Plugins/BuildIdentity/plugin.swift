import Foundation
import PackagePlugin

/// Writes `BuildIdentity.swift` into the `xiangqi` target: the commit the binary is built from
/// and its date (`scripts/build-identity.sh`), so that `id name`, `--version` and match records
/// tell two builds apart. The command runs again whenever the checked-out commit, the index or
/// any of the package's source files changed (what makes a build "-dirty"). Only the
/// executable uses it: the libraries an app links carry the release number alone.
@main
struct BuildIdentityPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let script = root.appendingPathComponent("scripts/build-identity.sh")
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("Generated")
        var inputs = [script]
        if let git = Self.gitDirectory(root) {
            inputs += ["HEAD", "index", "logs/HEAD", "packed-refs"].map { git.appendingPathComponent($0) }
        }
        for case let source as SourceModuleTarget in context.package.targets {
            inputs += source.sourceFiles.map(\.url)
        }
        inputs = inputs.filter { FileManager.default.fileExists(atPath: $0.path) }
        return [.buildCommand(displayName: "Build identity (commit and date)",
                              executable: URL(fileURLWithPath: "/bin/sh"),
                              arguments: [script.path, root.path, output.path],
                              inputFiles: inputs,
                              outputFiles: [output.appendingPathComponent("BuildIdentity.swift")])]
    }

    /// The checkout's git directory: `.git`, or where a worktree's `.git` file points.
    static func gitDirectory(_ root: URL) -> URL? {
        let dotGit = root.appendingPathComponent(".git")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dotGit.path, isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue { return dotGit }
        guard let text = try? String(contentsOf: dotGit, encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("gitdir: ") }) else { return nil }
        let path = String(line.dropFirst("gitdir: ".count))
        return path.hasPrefix("/") ? URL(fileURLWithPath: path) : root.appendingPathComponent(path)
    }
}
