// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "changeset",
    // The readers borrow bytes through `Array.span` and `String.utf8.span`,
    // which Apple's systems ship from their 26 releases on (Linux: any).
    platforms: [.macOS("26.0"), .iOS("26.0")],
    products: [
        .executable(name: "changeset", targets: ["changeset"]),
        // The engine, readers and formatters, usable from Swift without the command.
        .library(name: "ChangesetKit", targets: ["ChangesetKit"]),
        // The generic sectioned diff alone (moves, apply, verify): no files, no C libraries.
        .library(name: "ChangesetEngine", targets: ["ChangesetEngine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        // `swift package generate-documentation --target ChangesetKit` (see README).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // libyajl, found through pkg-config; only files in Input/ import it.
        .systemLibrary(
            name: "CYajl",
            pkgConfig: "yajl",
            providers: [.apt(["libyajl-dev"])]
        ),
        // zlib and libzstd, for .gz and .zst inputs and results; only Input/Decompression.swift imports them.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        // libsqlite3, for SQLite tables as snapshots (`--table`); only Input/InputBytes.swift imports it.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // A cache prefetch hint (a static inline C function; nothing to link).
        .systemLibrary(name: "CPrefetch"),
        // glibc's mallopt, for the command only (Linux).
        .systemLibrary(name: "CMalloc"),
        // Knows nothing of files, formats or C: any Identifiable & Equatable elements.
        .target(name: "ChangesetEngine"),
        .target(
            name: "ChangesetKit",
            // No unsafe flags, so other packages can depend on this one by version.
            // The readers' run-time exclusivity checks are turned off property by
            // property instead (`@exclusivity(unchecked)`, see JSONRecordReader).
            dependencies: ["ChangesetEngine", "CYajl", "CZlib", "CZstd", "CSQLite", "CPrefetch"]
        ),
        .executableTarget(
            name: "changeset",
            dependencies: [
                "ChangesetKit",
                .target(name: "CMalloc", condition: .when(platforms: [.linux])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The benchmark's data generator and in-process engine timing (scripts/benchmark.py).
        .executableTarget(
            name: "changeset-bench",
            dependencies: ["ChangesetKit"]
        ),
        .testTarget(
            name: "ChangesetKitTests",
            dependencies: [
                "ChangesetKit",
                "ChangesetEngine",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "ChangesetCLITests",
            dependencies: ["changeset"]
        ),
    ]
)
