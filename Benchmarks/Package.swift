// swift-tools-version: 6.1
// Benchmarks live in their own package so the main package never depends on them.
import PackageDescription

let package = Package(
    name: "BrowseyBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Browsey", path: "..")
    ],
    targets: [
        .executableTarget(
            name: "walk",
            dependencies: [.product(name: "FileTree", package: "Browsey")],
            swiftSettings: [.unsafeFlags(["-Ounchecked"])]
        ),
        .executableTarget(
            name: "documents",
            dependencies: [
                .product(name: "DocumentBrowser", package: "Browsey"),
                .product(name: "FileTree", package: "Browsey"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
