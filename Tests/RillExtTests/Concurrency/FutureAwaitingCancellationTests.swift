import RillTestSupport
import Synchronization
import Testing

@testable import RillExt

/// What the operation of an awaiting future saw.
private final class FutureOperationProbe: Sendable {
  let started = Atomic<Bool>(false)
  let sawCancellationHandler = Atomic<Bool>(false)
  let sawIsCancelled = Atomic<Bool>(false)
  let ended = Atomic<Bool>(false)

  var hasStarted: Bool { started.load(ordering: .sequentiallyConsistent) }
  var cancelled: Bool { sawCancellationHandler.load(ordering: .sequentiallyConsistent) }
  var isCancelledWasTrue: Bool { sawIsCancelled.load(ordering: .sequentiallyConsistent) }
  var hasEnded: Bool { ended.load(ordering: .sequentiallyConsistent) }
}

/// A one-shot gate an operation waits at until the test opens it.
private final class FutureOperationGate: Sendable {
  private let state = Mutex<(open: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

  func open() {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.open = true
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }

  func wait() async {
    await withCheckedContinuation { continuation in
      let isOpen = state.withLock { state -> Bool in
        if !state.open { state.waiter = continuation }
        return state.open
      }
      if isOpen { continuation.resume() }
    }
  }
}

/// An operation that waits at `gate`, which cancellation also opens, then returns 42, or -1 when cancelled.
private func gatedOperation(_ probe: FutureOperationProbe, _ gate: FutureOperationGate) -> @Sendable () async -> Int {
  {
    probe.started.store(true, ordering: .sequentiallyConsistent)
    await withTaskCancellationHandler {
      await gate.wait()
    } onCancel: {
      probe.sawCancellationHandler.store(true, ordering: .sequentiallyConsistent)
      gate.open()
    }
    let cancelled = Task.isCancelled
    probe.sawIsCancelled.store(cancelled, ordering: .sequentiallyConsistent)
    probe.ended.store(true, ordering: .sequentiallyConsistent)
    return cancelled ? -1 : 42
  }
}

/// Collects a sink's events across threads.
private final class FutureEventBox<Failure: Error>: Sendable {
  private let events = Mutex<[String]>([])

  var all: [String] { events.withLock { $0 } }

  func sink<P: Publisher>(_ publisher: P) -> AnyCancellable where P.Output == Int, P.Failure == Failure {
    publisher.sink(
      receiveCompletion: { completion in
        let text: String
        switch completion {
        case .finished: text = "finished"
        case .failure(let error): text = "failure \(type(of: error))"
        }
        self.events.withLock { $0.append(text) }
      },
      receiveValue: { value in self.events.withLock { $0.append("\(value)") } }
    )
  }
}

/// Polls `condition` every millisecond, for at most `asyncTestTimeout`.
private func eventually(_ condition: () -> Bool) async {
  await eventually(within: asyncTestTimeout, condition)
}

@Suite struct FutureAwaitingCancellationTests {
  @Test func cancellingTheOnlySubscriberCancelsTheTask() async {
    let probe = FutureOperationProbe()
    let future = Future<Int, Never>(awaiting: gatedOperation(probe, FutureOperationGate()))
    let box = FutureEventBox<Never>()
    let cancellable = box.sink(future)
    await eventually { probe.hasStarted }
    cancellable.cancel()
    await eventually { probe.hasEnded }
    #expect(probe.cancelled)
    #expect(probe.isCancelledWasTrue)
    #expect(box.all.isEmpty)
  }

  @Test func cancellingBeforeTheTaskStartsStillCancelsIt() async {
    let probe = FutureOperationProbe()
    let future = Future<Int, Never>(awaiting: gatedOperation(probe, FutureOperationGate()))
    future.sink { _ in }.cancel()
    await eventually { probe.hasEnded }
    #expect(probe.isCancelledWasTrue)
  }

  @Test func theWorkGoesOnWhileOneSubscriberStillWaits() async {
    let probe = FutureOperationProbe()
    let gate = FutureOperationGate()
    let future = Future<Int, Never>(awaiting: gatedOperation(probe, gate))
    let leaving = FutureEventBox<Never>()
    let staying = FutureEventBox<Never>()
    let first = leaving.sink(future)
    let second = staying.sink(future)
    first.cancel()
    // The hook would cancel the task synchronously inside `cancel()`, and the handler runs at once.
    #expect(!probe.cancelled)
    gate.open()
    await eventually { staying.all.count == 2 }
    expectEqual(staying.all, ["42", "finished"])
    #expect(leaving.all.isEmpty)
    #expect(!probe.isCancelledWasTrue)
    second.cancel()
  }

  @Test func aFutureNobodySubscribesToRunsToTheEndAndServesLateSubscribers() async {
    let probe = FutureOperationProbe()
    let gate = FutureOperationGate()
    let future = Future<Int, Never>(awaiting: gatedOperation(probe, gate))
    gate.open()
    await eventually { probe.hasEnded }
    #expect(!probe.isCancelledWasTrue)
    // The operation has returned; the future holds its result once the task has fulfilled it.
    #expect(await future.value == 42)
    let late = FutureEventBox<Never>()
    let cancellable = late.sink(future)
    expectEqual(late.all, ["42", "finished"])
    cancellable.cancel()
  }

  @Test func lateSubscribersReceiveWhatTheCancelledOperationThrew() async {
    let future = Future<Int, any Error>(awaiting: {
      try await Task.sleep(nanoseconds: 60_000_000_000)
      return 1
    })
    let box = FutureEventBox<any Error>()
    box.sink(future).cancel()
    await #expect(throws: CancellationError.self) { try await future.value }
    #expect(box.all.isEmpty)
  }

  @Test func throwingOperationSeesCancellationThroughCheckCancellation() async {
    let probe = FutureOperationProbe()
    let gate = FutureOperationGate()
    let future = Future<Int, any Error>(awaiting: {
      _ = await gatedOperation(probe, gate)()
      try Task.checkCancellation()
      return 42
    })
    let box = FutureEventBox<any Error>()
    let cancellable = box.sink(future)
    await eventually { probe.hasStarted }
    cancellable.cancel()
    await #expect(throws: CancellationError.self) { try await future.value }
    #expect(probe.cancelled)
  }

  @Test func releasesTheFutureAndTheSubscriberAfterCancel() async {
    let probe = FutureOperationProbe()
    weak var weakFuture: Future<Int, Never>?
    weak var weakSubscriber: Subscribers.Sink<Int, Never>?
    do {
      let future = Future<Int, Never>(awaiting: gatedOperation(probe, FutureOperationGate()))
      let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
      weakFuture = future
      weakSubscriber = sink
      future.subscribe(sink)
      await eventually { probe.hasStarted }
      sink.cancel()
    }
    await eventually { weakFuture == nil && weakSubscriber == nil }
    #expect(probe.isCancelledWasTrue)
    #expect(weakFuture == nil)
    #expect(weakSubscriber == nil)
  }

  @Test func releasesTheFutureAndTheSubscriberAfterCompletion() async {
    let probe = FutureOperationProbe()
    let gate = FutureOperationGate()
    weak var weakFuture: Future<Int, Never>?
    weak var weakSubscriber: Subscribers.Sink<Int, Never>?
    do {
      let future = Future<Int, Never>(awaiting: gatedOperation(probe, gate))
      let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
      weakFuture = future
      weakSubscriber = sink
      future.subscribe(sink)
      gate.open()
    }
    await eventually { weakFuture == nil && weakSubscriber == nil }
    #expect(!probe.isCancelledWasTrue)
    #expect(weakFuture == nil)
    #expect(weakSubscriber == nil)
  }
}
