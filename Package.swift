// swift-tools-version:6.2
import PackageDescription

// Targets follow ../shared/docs/architecture.md §3.1: each depends only on those above it.
// XiangqiCore has no dependencies (not even Foundation) so that an app can embed it.
let package = Package(
    name: "Xiangqi",
    // Apple platforms: OS 26, the first whose runtime has `InlineArray` (positions and move
    // lists keep their fixed-size storage inline; see README, "Apple platforms"). Linux
    // ignores this list. Only Linux builds are compiled and tested here.
    platforms: [.macOS("26.0"), .iOS("26.0")],
    products: [
        .executable(name: "xiangqi", targets: ["xiangqi"]),
        .library(name: "XiangqiCore", targets: ["XiangqiCore"]),
        .library(name: "XiangqiSearch", targets: ["XiangqiSearch"]),
        .library(name: "XiangqiBook", targets: ["XiangqiBook"]),
        .library(name: "XiangqiEngine", targets: ["XiangqiEngine"]),
        .library(name: "XiangqiCodec", targets: ["XiangqiCodec"]),
        .library(name: "XiangqiClient", targets: ["XiangqiClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    ],
    targets: [
        .target(name: "XiangqiCore"),
        // The network's output layer in C, vectorized by the C compiler (bench/nnue.md).
        .target(name: "CNetworkKernels"),
        .target(name: "XiangqiSearch", dependencies: ["XiangqiCore", "CNetworkKernels"]),
        // The system SQLite (architecture §3.1): no package to fetch and build, a few KB of glue.
        // No pkg-config: sqlite3.h and libsqlite3 sit in the default paths on Linux (apt
        // libsqlite3-dev) and in Apple's SDKs, where pkg-config does not exist for iOS.
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(name: "XiangqiBook", dependencies: ["XiangqiCore", "CSQLite"]),
        .target(name: "XiangqiEngine", dependencies: ["XiangqiSearch", "XiangqiBook"]),
        // The text of what engines say (info and bestmove lines, scores, moves in either rank
        // numbering): written by the protocol session, read by the client, one definition.
        .target(name: "XiangqiCodec", dependencies: ["XiangqiCore", "XiangqiSearch"]),
        .target(name: "XiangqiProtocol", dependencies: ["XiangqiEngine", "XiangqiBook", "XiangqiCodec"]),
        // Other engines as subprocesses (no Foundation: posix_spawn, pipes, a reader thread
        // each), EPD suites, matches and their statistics. Reads engine output with the codec.
        .target(name: "XiangqiClient", dependencies: ["XiangqiCore", "XiangqiCodec"]),
        .executableTarget(
            name: "xiangqi",
            dependencies: [
                "XiangqiCore",
                "XiangqiBook",
                "XiangqiEngine",
                "XiangqiProtocol",
                "XiangqiClient",
                "XiangqiCodec",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The library used as an app uses it (public API only); CI builds and runs it.
        .executableTarget(
            name: "practice-game",
            dependencies: ["XiangqiCore", "XiangqiSearch", "XiangqiBook", "XiangqiEngine"],
            path: "Examples/PracticeGame"
        ),
        .testTarget(
            name: "XiangqiCoreTests",
            dependencies: ["XiangqiCore"],
            resources: [.copy("Resources")]
        ),
        .testTarget(name: "XiangqiSearchTests", dependencies: ["XiangqiEngine"]),
        .testTarget(name: "XiangqiBookTests", dependencies: ["XiangqiBook"]),
        .testTarget(name: "XiangqiCodecTests", dependencies: ["XiangqiCodec"]),
        .testTarget(name: "XiangqiClientTests", dependencies: ["XiangqiClient", "xiangqi"]),
        .testTarget(
            name: "XiangqiProtocolTests",
            dependencies: ["XiangqiProtocol", "XiangqiBook", "xiangqi"],
            resources: [.copy("Transcripts")]
        ),
    ]
)
