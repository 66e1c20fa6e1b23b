import Foundation
import XCTest

// Rill's own stand-in for the suite's crash assertion: the suite's version names its single test module, while
// the harness builds one module per test file.
//
// A case that asserts a trap runs its block in a child process (this test binary, re-run on that one case) and
// passes if the child dies of a signal. The marker line tells `Conformance/run` that the case asserts a trap, so
// it is counted apart from the cases that do not.
private let childVariable = "RILL_CONFORMANCE_CRASH_CHILD"

extension XCTest {
  func assertCrashes(within block: () throws -> Void) rethrows {
    if ProcessInfo.processInfo.environment[childVariable] != nil {
      try block()
      return
    }
    print("conformance: asserts a trap")
    // `name` is "Class.method" on Linux; the binary takes "Module.Class/method".
    let module = String(reflecting: type(of: self)).split(separator: ".").first.map(String.init) ?? ""
    let parts = name.split(separator: ".")
    guard parts.count == 2 else { return XCTFail("unexpected test name \(name)") }
    let child = Process()
    child.executableURL = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0])
    child.arguments = ["\(module).\(parts[0])/\(parts[1])"]
    var environment = ProcessInfo.processInfo.environment
    environment[childVariable] = "1"
    child.environment = environment
    child.standardOutput = FileHandle.nullDevice
    child.standardError = FileHandle.nullDevice
    do {
      try child.run()
      // A block that hangs instead of trapping must not leave a process behind: Foundation starts the child in a
      // session of its own, out of reach of the runner's time limit.
      let deadline = Date(timeIntervalSinceNow: 10)
      while child.isRunning && Date() < deadline { usleep(10_000) }
      if child.isRunning {
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        return XCTFail("expected a trap, but the block was still running after 10 s")
      }
      if child.terminationReason != .uncaughtSignal {
        XCTFail("expected a trap, but the block returned (exit status \(child.terminationStatus))")
      }
    } catch {
      XCTFail("could not start the child process: \(error)")
    }
  }
}
