internal import Foundation

/// How an ``UnimplementedScheduler`` reports that it was used.
///
/// combine-schedulers records a test failure through a library that finds XCTest and Swift Testing at run time.
/// RillExt depends on the toolchain alone and links neither, so it cannot record a failure in the running test;
/// it stops the test process instead, with the message, which fails the test run as loudly. Outside a test
/// process it writes the message to standard error and carries on, as combine-schedulers does.
enum UnimplementedFailure {
  static func report(_ message: String, inTestProcess: Bool = isTesting) {
    if inTestProcess {
      fatalError(message)
    }
    FileHandle.standardError.write(Data("RillExt: \(message)\n".utf8))
  }

  /// Whether this process runs tests: an XCTest bundle, or SwiftPM's test runner for XCTest or Swift Testing.
  static let isTesting: Bool = {
    let environment = ProcessInfo.processInfo.environment
    if ["XCTestBundlePath", "XCTestConfigurationFilePath", "XCTestSessionIdentifier"].contains(where: {
      environment[$0] != nil
    }) {
      return true
    }
    return ProcessInfo.processInfo.arguments.contains { argument in
      let url = URL(fileURLWithPath: argument)
      return argument == "--testing-library" || url.pathExtension == "xctest"
        || ["xctest", "swiftpm-testing-helper"].contains(url.lastPathComponent)
    }
  }()
}
