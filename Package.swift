// swift-tools-version:6.2
import PackageDescription

// Targets follow ../shared/docs/architecture.md §3.1: each depends only on those above it.
// XiangqiCore has no dependencies (not even Foundation) so that an app can embed it.
let package = Package(
    name: "Xiangqi",
    products: [
        .executable(name: "xiangqi", targets: ["xiangqi"]),
        .library(name: "XiangqiCore", targets: ["XiangqiCore"]),
        .library(name: "XiangqiSearch", targets: ["XiangqiSearch"]),
        .library(name: "XiangqiEngine", targets: ["XiangqiEngine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    ],
    targets: [
        .target(name: "XiangqiCore"),
        .target(name: "XiangqiSearch", dependencies: ["XiangqiCore"]),
        .target(name: "XiangqiEngine", dependencies: ["XiangqiSearch"]),
        .target(name: "XiangqiProtocol", dependencies: ["XiangqiEngine"]),
        .executableTarget(
            name: "xiangqi",
            dependencies: [
                "XiangqiCore",
                "XiangqiEngine",
                "XiangqiProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "XiangqiCoreTests",
            dependencies: ["XiangqiCore"],
            resources: [.copy("Resources")]
        ),
        .testTarget(name: "XiangqiSearchTests", dependencies: ["XiangqiEngine"]),
        .testTarget(
            name: "XiangqiProtocolTests",
            dependencies: ["XiangqiProtocol", "xiangqi"],
            resources: [.copy("Transcripts")]
        ),
    ]
)
