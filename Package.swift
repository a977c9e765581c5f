// swift-tools-version:6.2
import PackageDescription

// Each target depends only on those above it (ARCHITECTURE.md). XiangqiCore has no
// dependencies (not even Foundation) so that an app can embed it.
let package = Package(
    name: "Xiangqi",
    // Apple platforms: the practice-mode app targets iOS 15. Nothing the libraries use may
    // need a newer runtime (no InlineArray, Mutex, Atomic, Duration or ContinuousClock):
    // `scripts/check-apple-availability.py`, run by CI, enforces it. Linux ignores this list.
    platforms: [.macOS(.v12), .iOS(.v15)],
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
        // Only the `xiangqi` command-line tool uses it: an app that depends on the library
        // products (XiangqiEngine and the targets below it) neither builds nor links it.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // `swift package generate-documentation`: the DocC catalogs (a plugin; nothing links it).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(name: "XiangqiCore"),
        // The network's output layer in C, vectorized by the C compiler (bench/nnue.md).
        .target(name: "CNetworkKernels"),
        // Relaxed atomic loads and stores of 64-bit words (the standard `Atomic` needs iOS 18).
        .target(name: "CAtomicWords"),
        // The default network and book, built into the binary and the libraries (.incbin of
        // networks/xiangqi.nnue and books/xiangqi-book.sqlite): nothing to find at run time.
        .target(
            name: "CEmbeddedData",
            cSettings: [.headerSearchPath("../../networks"), .headerSearchPath("../../books")]
        ),
        .target(name: "XiangqiSearch", dependencies: ["XiangqiCore", "CNetworkKernels", "CAtomicWords", "CEmbeddedData"]),
        // The system SQLite: no package to fetch and build, a few KB of glue (ARCHITECTURE.md).
        // No pkg-config: sqlite3.h and libsqlite3 sit in the default paths on Linux (apt
        // libsqlite3-dev) and in Apple's SDKs, where pkg-config does not exist for iOS.
        .systemLibrary(
            name: "CSQLite",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(name: "XiangqiBook", dependencies: ["XiangqiCore", "CSQLite", "CEmbeddedData"]),
        .target(name: "XiangqiEngine", dependencies: ["XiangqiSearch", "XiangqiBook"]),
        // Self-play data, training records, the network trainer and the Texel tuner: the
        // tools' (xiangqi datagen, train, tune), not an app's, so no library product.
        .target(name: "XiangqiTraining", dependencies: ["XiangqiCore", "XiangqiSearch", "XiangqiEngine"]),
        // The text of what engines say (info and bestmove lines, scores, moves in either rank
        // numbering): written by the protocol session, read by the client, one definition.
        .target(name: "XiangqiCodec", dependencies: ["XiangqiCore"]),
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
                "XiangqiTraining",
                "XiangqiProtocol",
                "XiangqiClient",
                "XiangqiCodec",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            plugins: ["BuildIdentity"]
        ),
        // The commit and date of the source tree, generated into the `xiangqi` executable
        // before each build (scripts/build-identity.sh); the libraries do not use it.
        .plugin(name: "BuildIdentity", capability: .buildTool()),
        // The library used as an app uses it (public API only); CI builds and runs it.
        .executableTarget(
            name: "practice-game",
            dependencies: ["XiangqiCore", "XiangqiSearch", "XiangqiBook", "XiangqiEngine"],
            path: "Examples/PracticeGame"
        ),
        // Measures for app developers (bench/app.md): a second engine's memory, how fast the
        // async calls stop when cancelled. Public API only.
        .executableTarget(
            name: "app-bench",
            dependencies: ["XiangqiCore", "XiangqiSearch", "XiangqiBook", "XiangqiEngine"],
            path: "bench/AppBench"
        ),
        // A slow move generator written straight from the rules, for tests only (no product).
        .target(name: "XiangqiTestSupport", dependencies: ["XiangqiCore"], path: "Tests/Support"),
        .testTarget(
            name: "XiangqiCoreTests",
            dependencies: ["XiangqiCore", "XiangqiTestSupport"],
            resources: [.copy("Resources")]
        ),
        .testTarget(name: "XiangqiSearchTests", dependencies: ["XiangqiEngine", "XiangqiTraining"]),
        .testTarget(name: "XiangqiBookTests", dependencies: ["XiangqiBook"]),
        .testTarget(name: "XiangqiCodecTests", dependencies: ["XiangqiCodec"]),
        .testTarget(name: "XiangqiClientTests", dependencies: ["XiangqiClient", "xiangqi"]),
        .testTarget(
            name: "XiangqiProtocolTests",
            dependencies: ["XiangqiProtocol", "XiangqiBook", "XiangqiTestSupport", "xiangqi"],
            resources: [.copy("Transcripts")]
        ),
    ]
)
