import Foundation
import RillExt
import RillTestSupport
import RillTesting
import Testing

/// The work an ``Action`` under test runs: one hand-driven publisher per execution, in the order they started.
private final class Works: @unchecked Sendable {
  private let made = Locked<[(input: Int, publisher: ExtUpstream)]>([])

  var inputs: [Int] { made.withLock { $0.map(\.input) } }

  var last: ExtUpstream { made.withLock { $0.last!.publisher } }

  func make(_ input: Int) -> ExtUpstream {
    let publisher = ExtUpstream()
    made.withLock { $0.append((input, publisher)) }
    return publisher
  }
}

/// A counter that several threads bump.
private final class Counter: @unchecked Sendable {
  private let count = Locked(0)

  var value: Int { count.withLock { $0 } }

  func increment() { count.withLock { $0 += 1 } }
}

/// A work that ends on another thread: a future whose promise a global queue fulfils.
private func workOnAnotherThread(_ input: Int, after delay: Double = 0) -> some Publisher<Int, ExtTestError> {
  Deferred {
    Future<Int, ExtTestError> { promise in
      let fulfil = Fulfil(promise: promise)
      DispatchQueue.global().asyncAfter(deadline: .now() + delay) { fulfil.promise(.success(input)) }
    }
  }
}

/// Carries a future's promise to the queue that fulfils it.
private struct Fulfil: @unchecked Sendable {
  let promise: (Result<Int, ExtTestError>) -> Void
}

private typealias TestAction = Action<Int, Int, ExtTestError>

/// Subscribes a recording subscriber with unlimited demand to `publisher`.
private func record<P: Publisher>(_ publisher: P) -> TestSubscriber<P.Output, P.Failure> {
  let subscriber = TestSubscriber<P.Output, P.Failure>()
  publisher.subscribe(subscriber)
  return subscriber
}

@Suite struct ActionTests {
  @Test func executePublishesTheOutputsOfItsWorkAndValuesGathersThem() {
    let action = TestAction { input in [input, input * 10].publisher.setFailureType(to: ExtTestError.self) }
    let values = record(action.values)
    let first = record(action.execute(1))
    let second = record(action.execute(2))
    expectEqual(first.eventDescriptions, ["subscription", "value(1)", "value(10)", "finished"])
    expectEqual(second.eventDescriptions, ["subscription", "value(2)", "value(20)", "finished"])
    expectEqual(values.values, [1, 10, 2, 20])
    #expect(values.completion == nil)
  }

  @Test func aFailingWorkFailsItsExecutionAndReachesErrorsAndUnderlyingError() {
    let works = Works()
    // An action is not `Sendable`; this one's work factory is thread-safe, so the threads may share it.
    nonisolated(unsafe) let action = TestAction(workFactory: works.make)
    let errors = record(action.errors)
    let underlying = record(action.underlyingError)
    let execution = record(action.execute(1))
    works.last.send(5)
    works.last.send(completion: .failure(.upstream))
    expectEqual(execution.eventDescriptions, ["subscription", "value(5)", "failure(underlyingError(upstream))"])
    expectEqual(errors.values, [.underlyingError(.upstream)])
    expectEqual(underlying.values, [.upstream])
    #expect(record(action.execute(2)).completion == nil, "the action is enabled again after a failure")
  }

  @Test func executeWhileBusyFailsAtOnceWithNotEnabled() {
    let works = Works()
    // An action is not `Sendable`; this one's work factory is thread-safe, so the threads may share it.
    nonisolated(unsafe) let action = TestAction(workFactory: works.make)
    let errors = record(action.errors)
    let running = record(action.execute(1))
    let refused = record(action.execute(2))
    expectEqual(refused.eventDescriptions, ["subscription", "failure(notEnabled)"])
    expectEqual(errors.values, [.notEnabled])
    expectEqual(works.inputs, [1])
    works.last.send(completion: .finished)
    #expect(running.isFinished)
    #expect(record(action.execute(3)).completion == nil)
    expectEqual(works.inputs, [1, 3])
  }

  @Test func executeWhileDisabledFailsWithNotEnabledUntilEnabledIfSendsTrue() {
    let works = Works()
    let enabledIf = CurrentValueSubject<Bool, Never>(false)
    let action = TestAction(enabledIf: enabledIf, workFactory: works.make)
    let errors = record(action.errors)
    expectEqual(record(action.execute(1)).failure, .notEnabled)
    enabledIf.send(true)
    #expect(record(action.execute(2)).completion == nil)
    expectEqual(works.inputs, [2])
    expectEqual(errors.values, [.notEnabled])
  }

  @Test func anActionIsDisabledUntilEnabledIfSendsItsFirstValue() {
    let enabledIf = PassthroughSubject<Bool, Never>()
    let action = TestAction(enabledIf: enabledIf) { Just($0).setFailureType(to: ExtTestError.self) }
    let enabled = record(action.isEnabled)
    expectEqual(record(action.execute(1)).failure, .notEnabled)
    enabledIf.send(true)
    expectEqual(record(action.execute(2)).values, [2])
    enabledIf.send(completion: .finished)
    expectEqual(record(action.execute(3)).values, [3], "the last value of enabledIf stays after it finishes")
    expectEqual(enabled.values, [false, true, false, true, false, true])
  }

  @Test func isExecutingAndIsEnabledStartWithTheCurrentValueThenSendEachChange() {
    let works = Works()
    let enabledIf = CurrentValueSubject<Bool, Never>(true)
    let action = TestAction(enabledIf: enabledIf, workFactory: works.make)
    let executing = record(action.isExecuting)
    let enabled = record(action.isEnabled)
    expectEqual(executing.values, [false])
    expectEqual(enabled.values, [true])
    action.execute(1)
    expectEqual(record(action.isExecuting).values, [true])
    enabledIf.send(false)
    works.last.send(completion: .finished)
    enabledIf.send(true)
    enabledIf.send(true)
    action.execute(2)
    works.last.send(completion: .failure(.upstream))
    expectEqual(executing.values, [false, true, false, true, false])
    expectEqual(enabled.values, [true, false, true, false, true])
    #expect(record(action.execute(3)).failure == nil)
    expectEqual(record(action.execute(4)).failure, .notEnabled)
    expectEqual(executing.values, [false, true, false, true, false, true])
  }

  @Test func aLateSubscriberToAnExecutionGetsItsOutputsReplayed() {
    let works = Works()
    // An action is not `Sendable`; this one's work factory is thread-safe, so the threads may share it.
    nonisolated(unsafe) let action = TestAction(workFactory: works.make)
    let execution = action.execute(1)
    works.last.send(1)
    works.last.send(2)
    let late = record(execution)
    expectEqual(late.values, [1, 2])
    works.last.send(3)
    works.last.send(completion: .finished)
    expectEqual(late.eventDescriptions, ["subscription", "value(1)", "value(2)", "value(3)", "finished"])
    expectEqual(record(execution).eventDescriptions, late.eventDescriptions)
  }

  @Test func theExecutionHonoursEachSubscribersDemandAndRequestsUnlimitedFromTheWork() {
    let works = Works()
    // An action is not `Sendable`; this one's work factory is thread-safe, so the threads may share it.
    nonisolated(unsafe) let action = TestAction(workFactory: works.make)
    let execution = action.execute(1)
    let slow = TestSubscriber<Int, ActionError<ExtTestError>>(initialDemand: .max(1))
    let none = TestSubscriber<Int, ActionError<ExtTestError>>(initialDemand: .none)
    execution.subscribe(slow)
    execution.subscribe(none)
    expectEqual(works.last.requestedDemands, [.unlimited])
    for value in 1...3 { works.last.send(value) }
    expectEqual(slow.values, [1])
    expectEqual(none.events.count, 1)
    slow.request(.max(1))
    expectEqual(slow.values, [1, 2])
    // As with a `ReplaySubject`, the completion follows the values a subscriber has demand for; the others are
    // dropped. A subscriber that has not requested yet gets the completion after its first request.
    works.last.send(completion: .finished)
    expectEqual(slow.eventDescriptions, ["subscription", "value(1)", "value(2)", "finished"])
    expectEqual(none.eventDescriptions, ["subscription"])
    none.request(.max(1))
    expectEqual(none.eventDescriptions, ["subscription", "value(1)", "finished"])
    // A later subscriber gets every output its demand covers.
    let late = TestSubscriber<Int, ActionError<ExtTestError>>(initialDemand: .max(2))
    execution.subscribe(late)
    expectEqual(late.eventDescriptions, ["subscription", "value(1)", "value(2)", "finished"])
  }

  @Test func cancellingAnExecutionsSubscriberDoesNotStopTheWork() {
    let works = Works()
    // An action is not `Sendable`; this one's work factory is thread-safe, so the threads may share it.
    nonisolated(unsafe) let action = TestAction(workFactory: works.make)
    let values = record(action.values)
    let execution = record(action.execute(1))
    works.last.send(1)
    execution.cancel()
    works.last.send(2)
    #expect(!works.last.isCancelled)
    expectEqual(values.values, [1, 2])
    expectEqual(execution.values, [1])
    expectEqual(record(action.execute(2)).failure, .notEnabled)
    works.last.send(completion: .finished)
    #expect(record(action.execute(3)).failure == nil)
  }

  @Test func theWorkRunsWhenNobodySubscribesToTheExecution() {
    let works = Works()
    // An action is not `Sendable`; this one's work factory is thread-safe, so the threads may share it.
    nonisolated(unsafe) let action = TestAction(workFactory: works.make)
    let values = record(action.values)
    action.execute(1)
    works.last.send(7)
    expectEqual(values.values, [7])
  }

  @Test func executeFromInsideAValuesSubscriberFailsWhileBusyAndDoesNotDeadlock() {
    let works = Works()
    // An action is not `Sendable`; this one's work factory is thread-safe, so the threads may share it.
    nonisolated(unsafe) let action = TestAction(workFactory: works.make)
    let nested = Locked<[Subscribers.Completion<ActionError<ExtTestError>>?]>([])
    let values = TestSubscriber<Int, Never>(onValue: { _, value in
      let subscriber = record(action.execute(value * 100))
      nested.withLock { $0.append(subscriber.completion) }
      return .none
    })
    action.values.subscribe(values)
    let executing = record(action.isExecuting)
    action.execute(1)
    works.last.send(1)
    #expect(nested.withLock { $0 } == [.failure(.notEnabled)])
    expectEqual(works.inputs, [1])
    works.last.send(completion: .finished)
    expectEqual(executing.values, [false, true, false])
  }

  @Test func executeFromInsideAnIsExecutingSubscriberStartsTheNextExecutionInOrder() {
    // The subjects deliver nested, as Combine's do: the `false` that ends an execution reaches `chain` inside the
    // `execute` that started it, so the next execution starts there.
    let action = TestAction { Just($0).setFailureType(to: ExtTestError.self) }
    let started = Locked(0)
    let chain = TestSubscriber<Bool, Never>(onValue: { _, isExecuting in
      let next = started.withLock { count -> Int? in
        guard !isExecuting, count < 3 else { return nil }
        count += 1
        return count
      }
      if let next { action.execute(next).sink(receiveCompletion: { _ in }, receiveValue: { _ in }).cancel() }
      return .none
    })
    let values = record(action.values)
    let executing = record(action.isExecuting)
    action.isExecuting.subscribe(chain)
    expectEqual(values.values, [1, 2, 3])
    expectEqual(executing.values, [false, true, false, true, false, true, false])
    expectEqual(chain.values, [false, true, false, true, false, true, false])
  }

  @Test func aWorkThatMisbehavesIsIgnoredAfterItsCompletion() {
    let works = Works()
    // An action is not `Sendable`; this one's work factory is thread-safe, so the threads may share it.
    nonisolated(unsafe) let action = TestAction(workFactory: works.make)
    let values = record(action.values)
    let execution = record(action.execute(1))
    let extra = TestSubscription()
    works.last.send(subscription: extra)
    expectEqual(extra.cancelCount, 1)
    works.last.send(completion: .finished)
    works.last.send(2)
    works.last.send(completion: .failure(.upstream))
    #expect(values.values.isEmpty)
    expectEqual(execution.eventDescriptions, ["subscription", "finished"])
    expectEqual(record(action.isExecuting).values, [false])
  }
}

@Suite struct ActionMemoryTests {
  @Test func anActionIsFreedWhileEnabledIfLivesOn() {
    let enabledIf = CurrentValueSubject<Bool, Never>(true)
    weak var weakAction: TestAction?
    let values: TestSubscriber<Int, Never>
    do {
      let action = TestAction(enabledIf: enabledIf) { Just($0).setFailureType(to: ExtTestError.self) }
      values = record(action.values)
      action.execute(1)
      weakAction = action
    }
    #expect(weakAction == nil)
    expectEqual(values.eventDescriptions, ["subscription", "value(1)", "finished"], "its streams finish when it goes")
    enabledIf.send(false)
  }

  @Test func aRunningExecutionKeepsItsActionUntilTheWorkEnds() {
    let works = Works()
    weak var weakAction: TestAction?
    weak var weakExecution: AnyObject?
    do {
      let action = TestAction(workFactory: works.make)
      weakAction = action
      let execution = action.execute(1)
      let subscriber = record(execution)
      weakExecution = subscriber.subscription as AnyObject?
      subscriber.cancel()
    }
    #expect(weakAction != nil)
    works.last.send(completion: .finished)
    works.last.releaseSubscribers()
    #expect(weakAction == nil)
    #expect(weakExecution == nil)
  }

  @Test func aWorkThatIsHeldByNobodyElseRunsToItsEnd() {
    let action = TestAction { workOnAnotherThread($0, after: 0.05) }
    let done = DispatchSemaphore(value: 0)
    let values = TestSubscriber<Int, Never>(onValue: { _, _ in
      done.signal()
      return .none
    })
    action.values.subscribe(values)
    action.execute(4)
    expectEqual(done.wait(timeout: .now() + 10), .success)
    expectEqual(values.values, [4])
  }
}

@Suite(.tags(.stress), .timeLimit(.minutes(1)))
struct ActionStressTests {
  @Test func concurrentExecuteStartsExactlyOneExecution() {
    let works = Works()
    // An action is not `Sendable`; this one's work factory is thread-safe, so the threads may share it.
    nonisolated(unsafe) let action = TestAction(workFactory: works.make)
    let executing = record(action.isExecuting)
    for round in 0..<50 {
      let refusals = Counter()
      let group = DispatchGroup()
      for thread in 0..<8 {
        DispatchQueue.global().async(group: group) {
          if record(action.execute(round * 10 + thread)).failure == .notEnabled {
            refusals.increment()
          }
        }
      }
      expectEqual(group.wait(timeout: .now() + 30), .success)
      expectEqual(refusals.value, 7)
      expectEqual(works.inputs.count, round + 1)
      DispatchQueue.global().sync { works.last.send(completion: .finished) }
    }
    let expected = [false] + Array(repeating: [true, false], count: 50).flatMap { $0 }
    expectEqual(executing.values, expected)
  }

  @Test func executionsEndingOnOtherThreadsKeepTheStreamsInOrder() {
    // An action is not `Sendable`; this one's work factory is thread-safe, so the threads may share it.
    nonisolated(unsafe) let action = TestAction { workOnAnotherThread($0) }
    let executing = record(action.isExecuting)
    let enabled = record(action.isEnabled)
    let started = Counter()
    let group = DispatchGroup()
    for thread in 0..<4 {
      DispatchQueue.global().async(group: group) {
        for index in 0..<500 where record(action.execute(thread * 1000 + index)).failure == nil {
          started.increment()
        }
      }
    }
    expectEqual(group.wait(timeout: .now() + 30), .success)
    let deadline = Date().addingTimeInterval(10)
    // `isEnabled` follows `isExecuting`, so wait for both streams to reach their last value.
    while executing.values.count < 2 * started.value + 1 || enabled.values.count < 2 * started.value + 1 {
      if Date() > deadline { break }
      Thread.sleep(forTimeInterval: 0.001)
    }
    let count = started.value
    #expect(count > 0)
    let expectedExecuting: [Bool] = [false] + Array(repeating: [true, false], count: count).flatMap { $0 }
    let expectedEnabled: [Bool] = [true] + Array(repeating: [false, true], count: count).flatMap { $0 }
    expectEqual(executing.values, expectedExecuting)
    expectEqual(enabled.values, expectedEnabled)
  }
}
