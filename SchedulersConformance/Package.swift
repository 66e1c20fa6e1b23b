// swift-tools-version:6.1
import Foundation
import PackageDescription

// combine-schedulers' own test suite, run against RillExt. A separate package, so Rill's own `swift test` never
// resolves combine-schedulers. Its test target is made by `SchedulersConformance/run`, which copies the suite from
// the combine-schedulers checkout SwiftPM resolves below into `Generated/` (never committed); nothing builds or
// links combine-schedulers' library.
let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
let hasSuite = FileManager.default.fileExists(
  atPath: here.appendingPathComponent("Generated/CombineSchedulersTests").path
)

// The suite's files import `Combine` and `CombineSchedulers` (inside `#if canImport(Combine)`): the compiler's module
// aliases point both at Rill's modules, as they would for a user's unchanged sources. The upcoming features are the
// ones combine-schedulers builds its tests with.
let suiteSettings: [SwiftSetting] = [
  .unsafeFlags(["-module-alias", "Combine=Rill", "-module-alias", "CombineSchedulers=RillExt"]),
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("ImmutableWeakCaptures"),
  .enableUpcomingFeature("InferIsolatedConformances"),
  .enableUpcomingFeature("InternalImportsByDefault"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

var targets: [Target] = [
  // What XCTest on Linux lacks and the suite calls: `XCTExpectFailure`.
  .target(
    name: "SchedulersConformanceSupport",
    path: "Support"
  )
]
if hasSuite {
  targets.append(
    .testTarget(
      name: "CombineSchedulersTests",
      dependencies: [
        "SchedulersConformanceSupport",
        .product(name: "Rill", package: "Rill"),
        .product(name: "RillExt", package: "Rill"),
        .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
      ],
      path: "Generated/CombineSchedulersTests",
      swiftSettings: suiteSettings
    )
  )
}

let package = Package(
  name: "RillSchedulersConformance",
  // Combine's minimum, as Rill's and combine-schedulers' own.
  platforms: [.macOS(.v10_15)],
  dependencies: [
    .package(name: "Rill", path: ".."),
    // Resolved only for its test sources; nothing links it.
    .package(url: "https://github.com/pointfreeco/combine-schedulers", exact: "1.2.2"),
    // The suite's own helper library (`withMainSerialExecutor`, `LockIsolated`).
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.0.0"),
  ],
  targets: targets,
  swiftLanguageModes: [.v6]
)
