import Foundation
import PackagePlugin

/// Embeds every file of a target's `Assets` folder into the target as generated Swift, so the
/// files stay files in the repository and the binary needs no resource bundle (SwiftPM's bundle
/// accessor links all of Foundation).
///
/// The folder must be excluded from the target (`exclude: ["Assets"]`). The generated file
/// defines `EmbeddedAsset.all`; the target itself defines the `EmbeddedAsset` type the tool's
/// output constructs (see `EmbedAssetsTool`). Files whose name starts with a dot are skipped.
@main
struct AssetEmbeddingPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let folder = target.directoryURL.appending(path: "Assets")
        let files = Self.files(under: folder)
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedAssets.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) assets of \(target.name)",
                executable: try context.tool(named: "EmbedAssetsTool").url,
                arguments: [folder.path, output.path],
                inputFiles: files,
                outputFiles: [output])
        ]
    }

    /// The regular files under `folder`, dot-names skipped, in a stable order.
    static func files(under folder: URL) -> [URL] {
        guard
            let walker = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        var files: [URL] = []
        for case let url as URL in walker
        where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            files.append(url)
        }
        return files.sorted { $0.path < $1.path }
    }
}
