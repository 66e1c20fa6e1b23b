// swift-tools-version: 6.1
import PackageDescription

// A library that uses Apple's Combine where it exists and offers Rill elsewhere through a package trait, the way
// combine-schedulers offers OpenCombine. See "Moving from OpenCombine" in Rill's documentation.

/// The platforms without Apple's Combine.
let nonApple: [Platform] = [.linux, .android, .windows, .wasi, .openbsd]

let package = Package(
  name: "Countdown",
  platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6)],
  products: [.library(name: "Countdown", targets: ["Countdown"])],
  traits: [
    Trait(name: "Rill", description: "Combine's API from Rill on platforms without Combine.")
  ],
  dependencies: [
    // A published library names Rill's repository: .package(url: "https://github.com/rill-swift/Rill.git", from: "0.1.0")
    .package(name: "Rill", path: "../..")
  ],
  targets: [
    .target(
      name: "Countdown",
      dependencies: [
        .product(name: "Rill", package: "Rill", condition: .when(platforms: nonApple, traits: ["Rill"]))
      ]
    ),
    .testTarget(
      name: "CountdownTests",
      dependencies: [
        "Countdown",
        .product(name: "Rill", package: "Rill", condition: .when(platforms: nonApple, traits: ["Rill"])),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)

// On by default where Combine is missing, as combine-schedulers does for its OpenCombine trait.
#if !canImport(Darwin)
package.traits.insert(.default(enabledTraits: ["Rill"]))
#endif
