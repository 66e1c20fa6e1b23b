// swift-tools-version:6.1
import PackageDescription

// A separate package, so that Rill's own `swift test` never resolves these dependencies.
let package = Package(
  name: "RillBenchmarks",
  // package-benchmark's own minimum (and the benchmarks time with `ContinuousClock`); Rill itself needs less.
  platforms: [.macOS(.v13)],
  dependencies: [
    .package(name: "Rill", path: ".."),
    .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
    .package(
      url: "https://github.com/ordo-one/package-benchmark.git",
      from: "1.38.0",
      traits: ["MallocInterposer"]
    ),
  ],
  targets: [
    // Benchmarks/Sources/RillWorkloads/Workloads.swift is the one copy of the workloads; the OpenCombine
    // target compiles the same file through a symlink.
    .target(
      name: "RillWorkloads",
      dependencies: [
        .product(name: "RillCore", package: "Rill"),
        .product(name: "Rill", package: "Rill"),
        .product(name: "RillExt", package: "Rill"),
      ],
      swiftSettings: [.define("RILL"), .define("RILL_ZIP"), .define("RILL_COMBINE_LATEST")]
    ),
    .target(
      name: "OpenCombineWorkloads",
      dependencies: [
        .product(name: "OpenCombine", package: "OpenCombine"),
        .product(name: "OpenCombineDispatch", package: "OpenCombine"),
        .product(name: "OpenCombineFoundation", package: "OpenCombine"),
      ]
    ),
    .target(name: "HandLoops"),
    // Runs one workload once, for valgrind: `rill-probe Rill "PassthroughSubject send, 1 sink" 1000`.
    .executableTarget(name: "rill-probe", dependencies: ["RillWorkloads", "OpenCombineWorkloads", "HandLoops"]),
    // Runs the operator rows, for Benchmarks/rows.py: `rill-rows Rill count 1000` under callgrind.
    .executableTarget(name: "rill-rows", dependencies: ["RillWorkloads", "OpenCombineWorkloads"]),
    // The server-shaped load, Rill against OpenCombine in one run: `rill-server-load 200 2000 5 3`.
    .executableTarget(name: "rill-server-load", dependencies: ["RillWorkloads", "OpenCombineWorkloads"]),
    .executableTarget(
      name: "RillBenchmarks",
      dependencies: [
        "HandLoops",
        "RillWorkloads",
        "OpenCombineWorkloads",
        .product(name: "Benchmark", package: "package-benchmark"),
      ],
      path: "Benchmarks/RillBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
    ),
  ],
  swiftLanguageModes: [.v5]
)
