// swift-tools-version:6.1
import Foundation
import PackageDescription

// Combine's behaviour suite, run against Rill. A separate package, so Rill's own `swift test` never resolves
// OpenCombine. Its test targets are made by `Conformance/run`, which copies the suite from the OpenCombine
// checkout SwiftPM resolves below into `Generated/` (never committed): one test target per test file, so that one
// file's compile error leaves the others running, and one `OpenCombineTests` library of the suite's helpers, named
// as in the suite because some of its expected descriptions name that module.
let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
let generated = here.appendingPathComponent("Generated")
let suites = ((try? FileManager.default.contentsOfDirectory(atPath: generated.path)) ?? [])
  .filter { $0.hasSuffix("Tests") && $0 != "OpenCombineTests" }
  .sorted()
let hasHelpers = FileManager.default.fileExists(atPath: generated.appendingPathComponent("OpenCombineTests").path)

// The suite imports `Combine` when `OPENCOMBINE_COMPATIBILITY_TEST` is set: the compiler's module alias points that
// import at Rill, as it would for a user's unchanged sources. The suite is Swift 5 code.
let suiteSettings: [SwiftSetting] = [
  .define("OPENCOMBINE_COMPATIBILITY_TEST"),
  .unsafeFlags(["-module-alias", "Combine=Rill"]),
]
let rill: Target.Dependency = .product(name: "Rill", package: "Rill")

var targets: [Target] = []
if hasHelpers {
  targets.append(
    .target(
      name: "OpenCombineTests",
      dependencies: [rill],
      path: "Generated/OpenCombineTests",
      swiftSettings: suiteSettings
    )
  )
  targets += suites.map { suite in
    .testTarget(
      name: suite,
      dependencies: ["OpenCombineTests", rill],
      path: "Generated/\(suite)",
      swiftSettings: suiteSettings
    )
  }
}

let package = Package(
  name: "RillConformance",
  // Combine's minimum, as Rill's: the suite is written for Combine's platforms.
  platforms: [.macOS(.v10_15)],
  dependencies: [
    .package(name: "Rill", path: ".."),
    // Resolved only for its test sources; nothing links it.
    .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
  ],
  targets: targets,
  swiftLanguageModes: [.v5]
)
