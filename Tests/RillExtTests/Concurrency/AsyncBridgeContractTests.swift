import RillExt
import RillTestSupport
import RillTesting
import Testing

/// RillTesting's contract checker, in its `async` form, on `asPublisher()` and `Future(awaiting:)`, which deliver
/// from a task, under every standard demand plan.
///
/// `asPublisher()` awaits the next element only while there is demand, so it sees the end of n elements, and
/// completes, once the plan has requested n + 1.
@Suite struct AsyncSequencePublisherContractTests {
  @Test func aFiniteSequence() async {
    let reports = await expectAsyncContract("1, 2, 3", values: [1, 2, 3], completingAfterDemandOf: 4) {
      AsyncStream<Int> { continuation in
        for value in 1...3 { continuation.yield(value) }
        continuation.finish()
      }.asPublisher()
    }
    expectEqual(reports[.unlimited]?.completion, .finished)
    expectEqual(reports[.oneAtATime]?.completion, .finished)
  }

  @Test func aThrowingSequence() async {
    let reports = await expectAsyncContract("1, 2, then an error", values: [1, 2], completingAfterDemandOf: 3) {
      AsyncThrowingStream<Int, any Error> { continuation in
        continuation.yield(1)
        continuation.yield(2)
        continuation.finish(throwing: ExtTestError.upstream)
      }.asPublisher()
    }
    for demand in [ContractDemand.unlimited, .max(3), .oneAtATime] {
      guard case .failure(let error) = reports[demand]?.completion else {
        Issue.record("\(demand): no failure")
        continue
      }
      expectEqual(error as? ExtTestError, .upstream)
    }
  }

  @Test func anEmptySequence() async {
    let reports = await expectAsyncContract("empty", values: [Int](), completingAfterDemandOf: 1) {
      AsyncStream<Int> { $0.finish() }.asPublisher()
    }
    expectEqual(reports[.max(1)]?.completion, .finished)
    // Like any `asPublisher()` subscription, it starts iterating at the first request, so it never learns that the
    // sequence is empty when nothing is requested.
    #expect(reports[.none]?.completion == nil)
  }

  @Test func aSlowSequenceUnderSmallDemand() async {
    let smallPlans = [
      ContractDemand.max(2),
      ContractDemand(initial: .max(2), perValue: .max(1)),
      ContractDemand(initial: .max(1), perValue: .max(1), cancelAfterValues: 3),
    ]
    let reports = await expectAsyncContract(
      "slow",
      values: [1, 2, 3, 4],
      completingAfterDemandOf: 5,
      demands: ContractDemand.standard + smallPlans
    ) {
      SlowSequence(count: 4, gap: .milliseconds(15)).asPublisher()
    }
    expectEqual(reports[ContractDemand(initial: .max(2), perValue: .max(1))]?.completion, .finished)
    #expect(reports[.max(2)]?.completion == nil)
  }
}

@Suite struct FutureAwaitingContractTests {
  @Test func aValue() async {
    await expectAsyncContract("a value at once", values: [1], completingAfterDemandOf: 1) {
      Future<Int, Never>(awaiting: { 1 })
    }
    await expectAsyncContract("a value later", values: [2], completingAfterDemandOf: 1) {
      Future<Int, Never>(awaiting: {
        try? await Task.sleep(for: .milliseconds(10))
        return 2
      })
    }
    await expectAsyncContract("a value already there", values: [3], completingAfterDemandOf: 1) {
      let future = Future<Int, Never>(awaiting: { 3 })
      _ = await future.value
      return future
    }
  }

  @Test func aThrowingForm() async {
    await expectAsyncContract("a value", values: [4], completingAfterDemandOf: 1) {
      Future<Int, any Error>(awaiting: { 4 })
    }
    let immediate = await expectAsyncContract("an error at once", values: [Int](), completingAfterDemandOf: 0) {
      Future<Int, any Error>(awaiting: { throw ExtTestError.upstream })
    }
    let later = await expectAsyncContract("an error later", values: [Int](), completingAfterDemandOf: 0) {
      Future<Int, any Error>(awaiting: {
        try await Task.sleep(for: .milliseconds(10))
        throw ExtTestError.other
      })
    }
    for (reports, expected) in [(immediate, ExtTestError.upstream), (later, .other)] {
      for (demand, report) in reports {
        guard case .failure(let error) = report.completion else {
          Issue.record("\(demand): no failure, \(report)")
          continue
        }
        expectEqual(error as? ExtTestError, expected, "\(demand)")
      }
    }
  }
}

/// A future whose task may fail while a subscriber is being attached, from another thread.
@Suite struct FutureAwaitingSubscriptionRaceTests {
  @Test(.tags(.stress)) func failingWhileASubscriberAttachesKeepsTheContract() async {
    for _ in 0..<2000 {
      let checker = ContractChecker<Int, any Error>(demand: .none)
      let future = Future<Int, any Error>(awaiting: { throw ExtTestError.upstream })
      // A short, varying pause, so that the task's failure lands before, during or after the subscription.
      var spin = 0
      for step in 0..<Int.random(in: 0..<20_000) { spin &+= step }
      #expect(spin >= 0)
      future.subscribe(checker)
      await eventually(within: asyncTestTimeout) { checker.report().completion != nil }
      let report = checker.report(expectsCompletion: true)
      #expect(report.isSatisfied, "\(report)")
      if !report.isSatisfied { return }
    }
  }
}

/// Counts from 1 to `count`, sleeping `gap` before each element.
private struct SlowSequence: AsyncSequence {
  typealias Element = Int

  let count: Int
  let gap: Duration

  struct AsyncIterator: AsyncIteratorProtocol {
    let count: Int
    let gap: Duration
    var current = 0

    mutating func next() async -> Int? {
      guard current < count else { return nil }
      try? await Task.sleep(for: gap)
      current += 1
      return current
    }
  }

  func makeAsyncIterator() -> AsyncIterator { AsyncIterator(count: count, gap: gap) }
}

/// The example of the contract checker's `async` form in RillTesting's documentation, character for character.
@Suite struct AsyncContractDocumentationExampleTests {
  @Test(arguments: ContractDemand.standard)
  func anAsyncSequenceKeepsTheContract(demand: ContractDemand) async {
    let numbers = AsyncStream<Int> { continuation in
      for number in 1...3 { continuation.yield(number) }
      continuation.finish()
    }
    let report = await PublisherContract.check(
      numbers.asPublisher(),  // RillExt's
      demand: demand,
      expectsCompletion: demand.initial == .unlimited,
      timeout: .seconds(60)
    )
    #expect(report.isSatisfied, "\(report)")
  }
}
