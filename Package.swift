// swift-tools-version:6.1
import PackageDescription

let strict: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The platforms without Apple's Combine, where RillShim re-exports Rill.
let nonApple: [Platform] = [.linux, .windows, .android, .wasi, .openbsd]

let package = Package(
  name: "Rill",
  // Combine's own minimums: anything newer is marked `@available`, as Combine marks its later additions
  // (scripts/check-platforms.py checks both).
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1), .macCatalyst(.v13)],
  products: [
    .library(name: "Rill", targets: ["Rill"]),
    .library(name: "RillCore", targets: ["RillCore"]),
    // Combine's API with the Foundation schedulers, Timer, NotificationCenter and the JSON coders, without
    // FoundationNetworking (and libcurl): for servers and tools that make no URLSession requests.
    .library(name: "RillFoundation", targets: ["RillFoundation"]),
    .library(name: "RillExt", targets: ["RillExt"]),
    .library(name: "RillTesting", targets: ["RillTesting"]),
    // Apple's Combine where it exists, Rill elsewhere: one import for code that runs on both.
    .library(name: "RillShim", targets: ["RillShim"]),
    .executable(name: "rill-demo", targets: ["rill-demo"]),
  ],
  dependencies: [
    // RillCore's few atomics (a gate beside a lock, two global counters), which the standard library's
    // `Synchronization` has only from the 2024 systems on. The library targets depend on nothing else. Measured
    // (Benchmarks/README.md, "Atomics without Synchronization"): with these atomics every row stays within 2% of
    // the `Synchronization` version (sequence → map → filter → sink 109 → 109 instructions per element, a subject's
    // send with one sink 548 → 546); reading each flag under a `Locked` instead costs 141 and 744 (+30%, +36%).
    .package(url: "https://github.com/apple/swift-atomics", from: "1.2.0")
  ],
  targets: [
    .target(
      name: "RillCore",
      dependencies: [.product(name: "Atomics", package: "swift-atomics")],
      swiftSettings: strict
    ),
    .target(name: "RillFoundation", dependencies: ["RillCore"], swiftSettings: strict),
    // RillFoundation and URLSession's data task publisher, re-exporting FoundationNetworking on Linux.
    .target(name: "Rill", dependencies: ["RillCore", "RillFoundation"], swiftSettings: strict),
    // Depends on Rill for the Foundation parts: URLSession's data task publisher as a single publisher, and the
    // scheduler helpers on DispatchQueue, RunLoop and OperationQueue.
    .target(name: "RillExt", dependencies: ["RillCore", "Rill"], swiftSettings: strict),
    // Depends on RillExt for its virtual-time schedulers (`DispatchQueue.test`), on which marble diagrams also run.
    .target(name: "RillTesting", dependencies: ["RillCore", "RillExt"], swiftSettings: strict),
    // Re-exports Apple's Combine where it exists and Rill elsewhere; an Apple build of it compiles none of Rill.
    .target(
      name: "RillShim",
      dependencies: [.target(name: "Rill", condition: .when(platforms: nonApple))],
      swiftSettings: strict
    ),
    // The loopback HTTP server of the URLSession tests and the demo's recipes; not a product.
    .target(name: "RillLoopbackServer", dependencies: ["RillCore"], swiftSettings: strict),
    // A program built against RillFoundation alone; CI checks with `ldd` that it links no libcurl.
    .executableTarget(
      name: "rill-foundation-example",
      dependencies: ["RillFoundation"],
      path: "Examples/RillFoundationExample",
      swiftSettings: strict
    ),
    .executableTarget(
      name: "rill-demo",
      dependencies: ["Rill", "RillExt", "RillTesting", "RillLoopbackServer"],
      swiftSettings: strict
    ),
    // Stress-test helpers and `expectEqual` shared by the test targets; not a product.
    .target(name: "RillTestSupport", dependencies: ["RillCore"], path: "Tests/RillTestSupport", swiftSettings: strict),
    .testTarget(
      name: "RillCoreTests",
      dependencies: ["RillCore", "RillTesting", "RillTestSupport"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "RillTests",
      dependencies: ["Rill", "RillTesting", "RillLoopbackServer", "RillTestSupport"],
      swiftSettings: strict
    ),
    // Depends on Rill as well, to check that RillExt's API and Combine's coexist when an app imports both.
    .testTarget(
      name: "RillExtTests",
      dependencies: ["Rill", "RillExt", "RillTesting", "RillTestSupport"],
      swiftSettings: strict
    ),
    // Declarations of other libraries that Rill must coexist with (such as a back-port of `Optional.publisher`),
    // each in a module of its own as in a real app; not a product.
    .target(name: "RillInteropFixtures", path: "Tests/RillInteropFixtures", swiftSettings: strict),
    .testTarget(name: "RillInteropTests", dependencies: ["RillCore", "RillInteropFixtures"], swiftSettings: strict),
    .testTarget(
      name: "RillTestingTests",
      dependencies: ["RillTesting", "Rill", "RillExt", "RillTestSupport"],
      swiftSettings: strict
    ),
    // Code written against RillShim alone, as an app shared with Apple platforms would write it.
    .testTarget(name: "RillShimTests", dependencies: ["RillShim"], swiftSettings: strict),
  ],
  swiftLanguageModes: [.v6]
)

// DocC's plugin only for `swift package generate-documentation` (scripts/build-docs.sh sets RILL_DOCS=1): a build,
// a test run and every package that depends on Rill fetch and compile nothing besides Rill.
if Context.environment["RILL_DOCS"] != nil {
  package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"))
}
