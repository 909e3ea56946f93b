// swift-tools-version: 6.1
// The Browsey package: a file server, its command-line client, and the libraries an app about
// files is built on. See README.md for the tour and Docs/Design.md for the decisions.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Browsey",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .executable(name: "browsey", targets: ["browsey"]),
        .library(name: "ErrorModel", targets: ["ErrorModel"]),
        .library(name: "FileTree", targets: ["FileTree"]),
        .library(name: "BrowseyAPI", targets: ["BrowseyAPI"]),
        .library(name: "BrowseyServer", targets: ["BrowseyServer"]),
        .library(name: "SearchIndex", targets: ["SearchIndex"]),
        .library(name: "Preview", targets: ["Preview"]),
        .library(name: "QRCode", targets: ["QRCode"]),
        .library(name: "ServiceDiscovery", targets: ["ServiceDiscovery"]),
        .library(name: "BrowseyClient", targets: ["BrowseyClient"]),
        .library(name: "BrowseyURLSession", targets: ["BrowseyURLSession"]),
        .library(name: "BrowseyClientNIO", targets: ["BrowseyClientNIO"]),
        .library(name: "DocumentBrowser", targets: ["DocumentBrowser"]),
        .library(name: "Thumbnails", targets: ["Thumbnails"]),
        .library(name: "BrowseyUI", targets: ["BrowseyUI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // No default traits: FullFoundation would link all of Foundation and ICU (about 28 MB of
        // resident pages), ConfigurationSupport is unused.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        // Only its SQLite module: GRDB's Swift layer imports all of Foundation (see SearchIndex).
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-async-algorithms.git", from: "1.1.4"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        // gzip (zlib) for the embedded web files, at build time in EmbedAssetsTool, and for the
        // tests that unpack them; the server itself never links it.
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        // Password hashes (scrypt in _CryptoExtras) and session-token digests (SHA-256). Its 4.x
        // imports FoundationEssentials, never all of Foundation, so the server stays light.
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        // A heap for the search index's shared score floor (already resolved beneath swift-nio).
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
    ],
    targets: [
        // MARK: Libraries
        // The shape every module's error takes (CodedError, ErrorCode). It depends on nothing, so
        // every library can use it without pulling anything in.
        .target(name: "ErrorModel", swiftSettings: strict),
        // How a web file is typed and tagged: shared by the build-time embedder and the server.
        .target(name: "AssetFormat", swiftSettings: strict),
        .target(
            name: "CFileTreeSystem",
            path: "Sources/CFileTreeSystem"
        ),
        .target(
            name: "FileTree",
            dependencies: [
                "CFileTreeSystem", "ErrorModel",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(name: "BrowseyAPI", swiftSettings: strict),
        .target(
            name: "BrowseyServer",
            dependencies: [
                "AssetFormat", "ErrorModel", "FileTree", "BrowseyAPI", "SearchIndex", "Preview", "ServiceDiscovery",
                "CFileTreeSystem", "Thumbnails", "CExpat",
                // gzip of JSON and text answers (ResponseCompression): zlib, NIOCore, no Foundation.
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                // Sessions and shares: SQLite's C API, as SearchIndex uses it.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            // The web UI and other files, embedded by the plugin instead of a resource bundle.
            exclude: ["Assets"],
            swiftSettings: strict,
            plugins: ["EmbedAssets"]
        ),
        .target(
            name: "SearchIndex",
            dependencies: [
                "CFileTreeSystem", "FileTree", "ErrorModel",
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(name: "Preview", swiftSettings: strict),
        // Expat from the system for WebDAV's XML bodies: small, streaming, Foundation-free (the
        // server cannot use Foundation's XMLParser); DTDs are refused before any entity is read.
        .systemLibrary(
            name: "CExpat", pkgConfig: "expat", providers: [.apt(["libexpat1-dev"]), .brew(["expat"])]),
        // Thumbnails: libjpeg-turbo and libpng linked from the system (their setjmp/longjmp kept
        // in a small C target), the optional codecs loaded at run time.
        .systemLibrary(
            name: "CJPEG", pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"]), .brew(["jpeg-turbo"])]),
        .systemLibrary(
            name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),
        .target(
            name: "CThumbnailCodecs", linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("png16")]),
        .target(
            name: "Thumbnails", dependencies: ["CThumbnailCodecs", "CJPEG", "CPNG", "ErrorModel", "FileTree"],
            swiftSettings: strict),
        .target(name: "QRCode", dependencies: ["ErrorModel"], swiftSettings: strict),
        .target(name: "ServiceDiscovery", dependencies: ["ErrorModel"], swiftSettings: strict),
        .target(
            name: "BrowseyClient",
            dependencies: ["BrowseyAPI", "ServiceDiscovery", "ErrorModel"],
            swiftSettings: strict
        ),
        // URLSession (FoundationNetworking on Linux) kept out of BrowseyClient: linking it costs a
        // process about 14 MiB at rest, which the `browsey` server must not pay.
        .target(name: "BrowseyURLSession", dependencies: ["BrowseyClient"], swiftSettings: strict),
        // The same client over NIO's HTTP/1.1 codec, Foundation-free and with only what the server
        // already links: what the command line uses.
        .target(
            name: "BrowseyClientNIO",
            dependencies: [
                "BrowseyClient",
                .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "DocumentBrowser", dependencies: ["FileTree", "ErrorModel", "Thumbnails"],
            swiftSettings: strict),
        .target(
            name: "BrowseyUI",
            dependencies: ["BrowseyClient", "DocumentBrowser"],
            swiftSettings: strict
        ),

        // MARK: Build tools
        // Embeds a target's Assets folder as Swift literals (see Plugins/EmbedAssets).
        .plugin(name: "EmbedAssets", capability: .buildTool(), dependencies: ["EmbedAssetsTool"]),
        .executableTarget(
            name: "EmbedAssetsTool",
            dependencies: [
                "AssetFormat",
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            path: "Plugins/EmbedAssetsTool",
            swiftSettings: strict
        ),

        // MARK: The command-line tool
        .executableTarget(
            name: "browsey",
            dependencies: [
                "BrowseyServer",
                "BrowseyAPI",
                "BrowseyClient",
                "BrowseyClientNIO",
                "ErrorModel",
                "FileTree",
                "QRCode",
                "ServiceDiscovery",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict,
            linkerSettings: [
                // A statically linked Swift runtime exports every symbol of the executable
                // (`-export-dynamic`): 3.4 MiB of symbol tables the loader reads, and keeps
                // resident, at every start. Nothing looks the server's symbols up by name.
                .unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux], configuration: .release))
            ]
        ),

        // MARK: Tests
        .target(name: "CTestSupport", path: "Tests/CTestSupport", linkerSettings: [.linkedLibrary("jpeg")]),
        .target(
            name: "TestSupport",
            dependencies: ["CTestSupport"],
            path: "Tests/TestSupport",
            swiftSettings: strict
        ),
        .testTarget(
            name: "BrowseyServerTests",
            dependencies: [
                "BrowseyServer", "BrowseyAPI", "CFileTreeSystem", "FileTree", "TestSupport", "Thumbnails",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
        // A test target that lists an executable (`browsey`, `DocumentSaveProbe`) runs it as a
        // child process: the dependency builds it, nothing imports it.
        .testTarget(
            name: "BrowseyCLITests",
            dependencies: ["browsey", "QRCode", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "BrowseyAPITests",
            dependencies: ["BrowseyAPI"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "QRCodeTests",
            dependencies: ["QRCode", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SearchIndexTests",
            dependencies: ["SearchIndex", "FileTree", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "BrowseyClientTests",
            dependencies: [
                "BrowseyClient", "BrowseyURLSession", "BrowseyClientNIO", "BrowseyServer", "BrowseyAPI", "TestSupport",
                "ServiceDiscovery", "browsey",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ServiceDiscoveryTests",
            dependencies: ["ServiceDiscovery", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "FileTreeTests",
            dependencies: ["FileTree", "TestSupport"],
            swiftSettings: strict
        ),
        // Saves a document until killed: the crash test's child process.
        // Renders Markdown read on stdin (one document, or many with --batch): the spec script,
        // the differential test against cmark-gfm and the benchmark run it.
        .executableTarget(
            name: "MarkdownRender",
            dependencies: ["Preview"],
            path: "Tests/MarkdownRender",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "DocumentSaveProbe",
            dependencies: ["DocumentBrowser", "FileTree"],
            path: "Tests/DocumentSaveProbe",
            swiftSettings: strict
        ),
        .testTarget(
            name: "DocumentBrowserTests",
            dependencies: ["DocumentBrowser", "FileTree", "TestSupport", "DocumentSaveProbe"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ErrorModelTests",
            dependencies: [
                "ErrorModel", "FileTree", "SearchIndex", "QRCode", "ServiceDiscovery", "DocumentBrowser", "BrowseyClient",
                "Thumbnails",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "ThumbnailsTests",
            dependencies: ["Thumbnails", "FileTree", "CThumbnailCodecs", "CTestSupport", "TestSupport"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "PreviewTests",
            dependencies: ["Preview", "TestSupport"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
