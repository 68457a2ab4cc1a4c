// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "changeset",
    products: [
        .executable(name: "changeset", targets: ["changeset"]),
        // The engine, readers and formatters, usable from Swift without the command.
        .library(name: "ChangesetKit", targets: ["ChangesetKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        // libyajl, found through pkg-config; only Input/JSONRecordReader.swift imports it.
        .systemLibrary(
            name: "CYajl",
            pkgConfig: "yajl",
            providers: [.apt(["libyajl-dev"])]
        ),
        .target(
            name: "ChangesetKit",
            dependencies: ["CYajl"]
        ),
        .executableTarget(
            name: "changeset",
            dependencies: [
                "ChangesetKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "ChangesetKitTests",
            dependencies: [
                "ChangesetKit",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "ChangesetCLITests",
            dependencies: ["changeset"]
        ),
    ]
)
