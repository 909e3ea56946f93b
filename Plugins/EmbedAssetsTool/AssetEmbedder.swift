import AssetFormat
import CompressNIO
import Foundation
import NIOCore

/// Turns the files of an assets folder into one Swift file of `StaticString` literals, run at
/// build time by the `EmbedAssets` plugin: `EmbedAssetsTool ASSETS-FOLDER OUTPUT.swift`.
///
/// For each file it writes the path inside the folder, a content type chosen by extension, a
/// strong ETag (a 64-bit FNV-1a hash and the length of the bytes) and, for text types where it
/// is smaller, a gzip variant compressed here, once, at the best level. Text that is valid
/// UTF-8 is written as it is (escaped where a literal needs it); other bytes, and the gzip
/// variants, one Unicode scalar per byte (U+0000…U+00FF), which the target maps back at start.
/// String literals type-check in linear time; an array literal of integers of the same size
/// takes the compiler many seconds. The generated code imports nothing.
@main
struct AssetEmbedder {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 3 else {
            FileHandle.standardError.write(Data("usage: EmbedAssetsTool ASSETS-FOLDER OUTPUT.swift\n".utf8))
            exit(2)
        }
        let folder = URL(fileURLWithPath: arguments[1], isDirectory: true).standardizedFileURL
        let output = URL(fileURLWithPath: arguments[2])
        var entries: [String] = []
        var total = 0
        var compressed = 0
        for file in try files(under: folder) {
            let bytes = [UInt8](try Data(contentsOf: file))
            let path = String(file.standardizedFileURL.path.dropFirst(folder.path.count + 1))
            let type = WebAssetFormat.contentType(ofPath: path)
            let identity = literal(of: bytes)
            var gzip = "nil"
            if type.compresses, let packed = try? gzipped(bytes), packed.count < bytes.count {
                gzip = latin1Literal(of: packed)
                compressed += packed.count
            }
            total += bytes.count
            entries.append(
                """
                        EmbeddedAsset(
                            path: \(plainLiteral(path)),
                            contentType: \(plainLiteral(type.name)),
                            etag: \(plainLiteral(WebAssetFormat.etag(of: bytes))),
                            identity: \(identity),
                            gzip: \(gzip)
                        ),
                """)
        }
        let source = """
            // Generated at build time by EmbedAssetsTool from the target's Assets folder: do not edit.
            // \(entries.count) files, \(total) bytes; their gzip variants \(compressed) bytes.

            extension EmbeddedAsset {
                /// Every file of the target's `Assets` folder, in the order of their paths.
                static let all: [EmbeddedAsset] = [
            \(entries.joined(separator: "\n"))
                ]
            }

            """
        let data = Data(source.utf8)
        if (try? Data(contentsOf: output)) != data {
            try data.write(to: output, options: .atomic)
        }
    }

    /// The regular files under `folder`, dot-names skipped, in the order of their paths.
    static func files(under folder: URL) throws -> [URL] {
        guard
            let walker = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        var files: [URL] = []
        for case let url as URL in walker {
            if try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
                files.append(url)
            }
        }
        return files.sorted { $0.path < $1.path }
    }

    /// The bytes in gzip's format (RFC 1952), compressed at zlib's best level.
    static func gzipped(_ bytes: [UInt8]) throws -> [UInt8] {
        var buffer = ByteBuffer(bytes: bytes)
        let packed = try buffer.compress(
            with: .gzip(configuration: .init(compressionLevel: .bestCompression, memoryLevel: .memory256K)))
        return Array(packed.readableBytesView)
    }

    /// `.utf8("…")` for text that is valid UTF-8, `.latin1("…")` for any other bytes.
    static func literal(of bytes: [UInt8]) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else { return latin1Literal(of: bytes) }
        return ".utf8(" + plainLiteral(text) + ")"
    }

    /// A string literal whose UTF-8 is exactly `text`'s.
    static func plainLiteral(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                // Controls, and the invisible ones a reader of the generated file should see.
                let value = scalar.value
                if value < 0x20 || (0x7F...0x9F).contains(value) || (0x200B...0x200F).contains(value)
                    || (0x2028...0x202E).contains(value) || (0x2066...0x2069).contains(value)
                    || value == 0xFEFF
                {
                    out += "\\u{" + String(value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// `.latin1("…")`: one Unicode scalar per byte, so any bytes fit a string literal.
    static func latin1Literal(of bytes: [UInt8]) -> String {
        var out = ".latin1(\""
        out.reserveCapacity(bytes.count * 4)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\\"): out += "\\\\"
            case UInt8(ascii: "\""): out += "\\\""
            case 0x20...0x7E: out.unicodeScalars.append(Unicode.Scalar(byte))
            default: out += "\\u{" + String(byte, radix: 16) + "}"
            }
        }
        return out + "\")"
    }
}
