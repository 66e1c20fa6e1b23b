import Foundation
import XCTest

// Rill's own stand-in for `XCTExpectFailure`, which XCTest has on Apple platforms only.
//
// An unimplemented scheduler of RillExt stops a test process where combine-schedulers records a test failure (see
// UnimplementedScheduler's documentation), so each expected failure runs in a child process: this test binary, run
// again on the same case (which `run` names in `RILL_SCHEDULERS_CASE`), running only that block. The expectation
// holds if the child stops with RillExt's message. The marker line tells `run` to count the case apart.

private let caseVariable = "RILL_SCHEDULERS_CASE"
private let blockVariable = "RILL_SCHEDULERS_EXPECTED_FAILURE"
private let marker = "schedulers-conformance: an expected failure is a trap in RillExt"

/// Counts the expected-failure blocks of the case that runs; each case runs in a process of its own.
private final class BlockCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  func next() -> Int {
    lock.lock()
    defer { lock.unlock() }
    count += 1
    return count
  }
}

private let blocks = BlockCounter()

// swift-format-ignore: AlwaysUseLowerCamelCase
public func XCTExpectFailure(
  _ failureReason: String? = nil,
  file: StaticString = #filePath,
  line: UInt = #line,
  failingBlock: () throws -> Void
) rethrows {
  let index = blocks.next()
  let environment = ProcessInfo.processInfo.environment
  if let chosen = environment[blockVariable] {
    guard chosen == String(index) else { return }
    try failingBlock()
    print("the expected failure \(index) did not happen: the block returned")
    exit(3)
  }
  print(marker)
  guard let testCase = environment[caseVariable] else {
    let message = "XCTExpectFailure needs \(caseVariable): run the suite with SchedulersConformance/run"
    return XCTFail(message, file: file, line: line)
  }
  let output = FileManager.default.temporaryDirectory.appendingPathComponent("expected-failure-\(getpid())-\(index)")
  FileManager.default.createFile(atPath: output.path, contents: nil)
  defer { try? FileManager.default.removeItem(at: output) }
  do {
    let handle = try FileHandle(forWritingTo: output)
    let child = Process()
    child.executableURL = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0])
    child.arguments = [testCase]
    child.environment = environment.merging([blockVariable: String(index)]) { $1 }
    child.standardOutput = handle
    child.standardError = handle
    try child.run()
    let deadline = Date(timeIntervalSinceNow: 20)
    while child.isRunning && Date() < deadline { usleep(10_000) }
    if child.isRunning {
      kill(child.processIdentifier, SIGKILL)
      child.waitUntilExit()
      return XCTFail("expected failure \(index): the block was still running after 20 s", file: file, line: line)
    }
    let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    let report = text.split(separator: "\n").first { $0.contains("Fatal error:") }
    guard child.terminationReason == .uncaughtSignal, let report else {
      return XCTFail("expected failure \(index) did not happen: \(text.suffix(400))", file: file, line: line)
    }
    print("expected failure \(index): \(report)")
  } catch {
    XCTFail("could not start the child process: \(error)", file: file, line: line)
  }
}
