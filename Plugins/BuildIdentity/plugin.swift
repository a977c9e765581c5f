import Foundation
import PackagePlugin

/// Writes `BuildIdentity.swift` into the `xiangqi` target before each build: the commit the
/// binary is built from and its date (`scripts/build-identity.sh`), so that `id name`,
/// `--version` and match records tell two builds apart. Only the executable uses it: the
/// libraries an app links carry the release number alone.
@main
struct BuildIdentityPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("Generated")
        return [.prebuildCommand(displayName: "Build identity (commit and date)",
                                 executable: URL(fileURLWithPath: "/bin/sh"),
                                 arguments: [root.appendingPathComponent("scripts/build-identity.sh").path, root.path, output.path],
                                 outputFilesDirectory: output)]
    }
}
