import RillExt
import RillTestSupport
import RillTesting
import Testing

/// RillTesting's contract checker, in its `async` form, on the publisher `Action.execute(_:)` returns, under every
/// standard demand plan: with work that ends at once or later in a task, when the action cannot start, and when the
/// work fails.
@Suite struct ActionContractTests {
  /// Each demand plan gets an action of its own: an execution that a plan leaves running (without demand, or
  /// cancelled while its task sleeps) would make the next plan's `execute` fail with `.notEnabled`.
  @Test func anEnabledAction() async {
    var actions: [AnyObject] = []
    await expectAsyncContract("work that ends at once", values: [1, 10], completingAfterDemandOf: 2) {
      let action = Action<Int, Int, ExtTestError> { [$0, $0 * 10].publisher.setFailureType(to: ExtTestError.self) }
      actions.append(action)
      return action.execute(1)
    }
    await expectAsyncContract("work that ends in a task", values: [2], completingAfterDemandOf: 1) {
      let action = Action<Int, Int, Never> { input in
        Future<Int, Never>(awaiting: {
          try? await Task.sleep(for: .milliseconds(10))
          return input
        })
      }
      actions.append(action)
      return action.execute(2)
    }
    let reports = await expectAsyncContract(
      "work that sends several values from a task",
      values: [3, 4, 5],
      completingAfterDemandOf: 3
    ) {
      let action = Action<Int, Int, Never> { input in
        AsyncStream<Int> { continuation in
          for value in input..<input + 3 { continuation.yield(value) }
          continuation.finish()
        }.asPublisher()
      }
      actions.append(action)
      return action.execute(3)
    }
    expectEqual(reports[.max(3)]?.completion, .finished)
    expectEqual(actions.count, 3 * ContractDemand.standard.count)
  }

  @Test func aDisabledOrBusyActionFailsWithNotEnabled() async {
    let disabled = Action<Int, Int, ExtTestError>(enabledIf: Just(false)) { _ in
      Just(1).setFailureType(to: ExtTestError.self)
    }
    let disabledReports = await expectAsyncContract("disabled", values: [Int](), completingAfterDemandOf: 0) {
      disabled.execute(1)
    }
    let busy = Action<Int, Int, ExtTestError> { _ in Empty<Int, ExtTestError>(completeImmediately: false) }
    busy.execute(1)
    let busyReports = await expectAsyncContract("busy", values: [Int](), completingAfterDemandOf: 0) {
      busy.execute(2)
    }
    for (demand, report) in Array(disabledReports) + Array(busyReports) {
      expectEqual(report.completion, .failure(.notEnabled), "\(demand): \(report)")
    }
  }

  @Test func failingWork() async {
    let atOnce = Action<Int, Int, ExtTestError> { _ in Fail<Int, ExtTestError>(error: .upstream) }
    let atOnceReports = await expectAsyncContract("failing at once", values: [Int](), completingAfterDemandOf: 0) {
      atOnce.execute(1)
    }
    for (demand, report) in atOnceReports {
      expectEqual(report.completion, .failure(.underlyingError(.upstream)), "\(demand): \(report)")
    }

    let later = Action<Int, Int, any Error> { input in
      AsyncThrowingStream<Int, any Error> { continuation in
        continuation.yield(input)
        continuation.finish(throwing: ExtTestError.other)
      }.asPublisher()
    }
    // The execution's publisher replays the value before the failure, so the failure follows it where the demand
    // covers it.
    let laterReports = await expectAsyncContract(
      "a value, then failing in a task",
      values: [7],
      completingAfterDemandOf: 1
    ) {
      later.execute(7)
    }
    for demand in [ContractDemand.unlimited, .max(1), .max(3), .oneAtATime] {
      guard case .failure(.underlyingError(let error)) = laterReports[demand]?.completion else {
        Issue.record("\(demand): no underlying error, \(String(describing: laterReports[demand]))")
        continue
      }
      expectEqual(error as? ExtTestError, .other, "\(demand)")
    }
  }
}
