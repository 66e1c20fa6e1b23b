// swift-tools-version: 6.1
import PackageDescription

// A view model shared between Apple platforms and Linux: Apple's Combine and combine-schedulers on Apple platforms,
// Rill and RillExt elsewhere, with the same sources and the same tests. See "Sharing code with Apple platforms" in
// Rill's documentation.

let apple: [Platform] = [.macOS, .macCatalyst, .iOS, .tvOS, .watchOS, .visionOS]
let nonApple: [Platform] = [.linux, .android, .windows, .wasi, .openbsd]

/// Combine's API everywhere, and combine-schedulers' API from the library that has it on each side.
let combineAndSchedulers: [Target.Dependency] = [
  .product(name: "RillShim", package: "Rill"),
  .product(name: "RillExt", package: "Rill", condition: .when(platforms: nonApple)),
  .product(name: "CombineSchedulers", package: "combine-schedulers", condition: .when(platforms: apple)),
]

let package = Package(
  name: "SharedViewModel",
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
  products: [.library(name: "SearchFeature", targets: ["SearchFeature"])],
  dependencies: [
    // An app names Rill's repository: .package(url: "https://github.com/rill-swift/Rill.git", from: "0.1.0")
    .package(name: "Rill", path: "../.."),
    // Resolved on every platform, built only for Apple platforms.
    .package(url: "https://github.com/pointfreeco/combine-schedulers", from: "1.0.0"),
  ],
  targets: [
    .target(name: "SearchFeature", dependencies: combineAndSchedulers),
    .testTarget(
      name: "SearchFeatureTests",
      dependencies: [
        "SearchFeature",
        // Marble diagrams run over Rill alone: the marble tests build where Rill stands in for Combine.
        .product(name: "RillTesting", package: "Rill", condition: .when(platforms: nonApple)),
      ] + combineAndSchedulers
    ),
  ],
  swiftLanguageModes: [.v6]
)
