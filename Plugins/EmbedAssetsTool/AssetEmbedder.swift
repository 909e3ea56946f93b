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
            let type = contentType(of: path)
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
                            etag: \(plainLiteral(etag(of: bytes))),
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

    /// The content type served for a path, and whether compressing it is worth it.
    static func contentType(of path: String) -> (name: String, compresses: Bool) {
        let suffix = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch suffix {
        case "html", "htm": return ("text/html; charset=utf-8", true)
        case "css": return ("text/css; charset=utf-8", true)
        case "js", "mjs": return ("text/javascript; charset=utf-8", true)
        case "json", "map": return ("application/json", true)
        case "webmanifest": return ("application/manifest+json", true)
        case "svg": return ("image/svg+xml", true)
        case "txt", "md": return ("text/plain; charset=utf-8", true)
        case "yaml", "yml": return ("application/yaml", true)
        case "xml": return ("application/xml", true)
        case "ico": return ("image/x-icon", true)
        case "png": return ("image/png", false)
        case "jpg", "jpeg": return ("image/jpeg", false)
        case "gif": return ("image/gif", false)
        case "webp": return ("image/webp", false)
        case "woff2": return ("font/woff2", false)
        case "woff": return ("font/woff", false)
        default: return ("application/octet-stream", false)
        }
    }

    /// A strong entity tag of the bytes: their 64-bit FNV-1a hash and their length, in hex. The
    /// server computes the same for files it reads from disk (`--web-root`).
    static func etag(of bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "-"
            + String(bytes.count, radix: 16) + "\""
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
