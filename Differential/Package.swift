// swift-tools-version:6.1
import PackageDescription

// A separate package, so that Rill's own `swift test` never resolves OpenCombine.
let package = Package(
  name: "RillDifferential",
  // The harness matches strings with the standard library's `contains(_:)` of Swift 5.7; Rill itself needs less.
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(name: "Rill", path: ".."),
    .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
  ],
  targets: [
    // The case model, the seeded generator and the trace format: shared by both engines.
    .target(name: "DifferentialModel"),
    // Sources/DifferentialRill/Engine.swift is the one copy of the engine; the OpenCombine target compiles the
    // same file through a symlink.
    .target(
      name: "DifferentialRill",
      dependencies: ["DifferentialModel", .product(name: "RillCore", package: "Rill")],
      swiftSettings: [.define("RILL")]
    ),
    .target(
      name: "DifferentialOpenCombine",
      dependencies: ["DifferentialModel", .product(name: "OpenCombine", package: "OpenCombine")]
    ),
    .executableTarget(
      name: "differential",
      dependencies: ["DifferentialModel", "DifferentialRill", "DifferentialOpenCombine"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
