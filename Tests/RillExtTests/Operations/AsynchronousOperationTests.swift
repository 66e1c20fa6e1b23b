import Dispatch
import Foundation
import RillExt
import RillTestSupport
import Testing

/// Records how many times `main()` and `didComplete()` ran, and whether `main()` finishes at once.
private final class ProbeOperation: AsynchronousOperation<Int, ExtTestError>, @unchecked Sendable {
  private let counts = Locked((main: 0, didComplete: 0))
  private let finishInMain: Result<Int, ExtTestError>?

  init(finishInMain: Result<Int, ExtTestError>? = nil) {
    self.finishInMain = finishInMain
  }

  var mainCount: Int { counts.withLock { $0.main } }
  var didCompleteCount: Int { counts.withLock { $0.didComplete } }

  override func main() {
    counts.withLock { $0.main += 1 }
    if let finishInMain { finish(with: finishInMain) }
  }

  override func didComplete() {
    counts.withLock { $0.didComplete += 1 }
  }
}

/// Collects the results a completion handler receives, from any thread.
private final class Outcomes: @unchecked Sendable {
  private let results = Locked([Result<Int, ExtTestError>?]())
  var all: [Result<Int, ExtTestError>?] { results.withLock { $0 } }
  func append(_ result: Result<Int, ExtTestError>?) { results.withLock { $0.append(result) } }
}

@Suite(.timeLimit(.minutes(1))) struct AsynchronousOperationTests {
  @Test func aRealQueueRunsAndFinishesAnOperationThatFinishesLaterOnAnotherThread() throws {
    let queue = OperationQueue()
    let outcomes = Outcomes()
    let operation = AsynchronousOperation<Int, ExtTestError>.blockOperation { operation in
      #expect(operation.isExecuting)
      #expect(!operation.isFinished)
      DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { operation.finish(with: .success(1)) }
    }
    operation.handleCompletion(onQueue: nil) { outcomes.append($0) }
    #expect(operation.isAsynchronous)
    #expect(!operation.isExecuting && !operation.isFinished && operation.result == nil)

    queue.addOperation(operation)
    #expect(waitUntilAllOperationsAreFinished(queue))
    #expect(operation.isFinished)
    #expect(!operation.isExecuting)
    #expect(!operation.isCancelled)
    #expect(try operation.result?.get() == 1)
    #expect(eventually { outcomes.all.count == 1 })
    #expect(try outcomes.all.first??.get() == 1)
  }

  @Test func anOperationThatFinishesInsideMainFinishes() {
    let queue = OperationQueue()
    let operation = ProbeOperation(finishInMain: .failure(.upstream))
    queue.addOperation(operation)
    #expect(waitUntilAllOperationsAreFinished(queue))
    #expect(operation.isFinished)
    expectEqual(operation.mainCount, 1)
    // The queue's thread announces the finish, which ends the wait, then calls `didComplete()`.
    #expect(eventually { operation.didCompleteCount == 1 })
    #expect(throws: ExtTestError.upstream) { try operation.result?.get() }
  }

  @Test func aSerialQueueRunsOperationsOneAfterTheOther() {
    let queue = OperationQueue(name: "serial", qualityOfService: .utility, maxConcurrentOperationCount: 1)
    expectEqual(queue.name, "serial")
    expectEqual(queue.qualityOfService, .utility)
    expectEqual(queue.maxConcurrentOperationCount, 1)
    let running = Shared((now: 0, most: 0))
    let operations = (0..<5).map { index in
      AsynchronousOperation<Int, Never>.blockOperation { operation in
        running.withLock {
          $0.now += 1
          $0.most = max($0.most, $0.now)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.01) {
          running.withLock { $0.now -= 1 }
          operation.finish(with: .success(index))
        }
      }
    }
    queue.addOperations(operations, waitUntilFinished: false)
    #expect(waitUntilAllOperationsAreFinished(queue))
    #expect(running.withLock { $0.most } == 1)
    let values = operations.map { operation -> Int? in
      guard case .success(let value)? = operation.result else { return nil }
      return value
    }
    expectEqual(values, [0, 1, 2, 3, 4])
  }

  @Test func aResultGivenBeforeTheStartFinishesTheOperationWhenItStartsWithoutCallingMain() throws {
    let queue = OperationQueue()
    queue.isSuspended = true
    let operation = ProbeOperation()
    operation.finish(with: .success(1))
    expectEqual(operation.didCompleteCount, 1)
    #expect(!operation.isFinished)
    queue.addOperation(operation)
    queue.isSuspended = false
    #expect(waitUntilAllOperationsAreFinished(queue))
    #expect(operation.isFinished)
    expectEqual(operation.mainCount, 0)
    #expect(try operation.result?.get() == 1)
  }

  @Test func anOperationCancelledBeforeItStartsFinishesWithoutResultWhenItStarts() {
    let queue = OperationQueue()
    queue.isSuspended = true
    let outcomes = Outcomes()
    let operation = ProbeOperation()
    operation.handleCompletion(onQueue: nil) { outcomes.append($0) }
    queue.addOperation(operation)
    operation.cancel()
    #expect(operation.isCancelled)
    #expect(!operation.isFinished)
    queue.isSuspended = false
    #expect(waitUntilAllOperationsAreFinished(queue))
    #expect(operation.isFinished)
    expectEqual(operation.mainCount, 0)
    #expect(eventually { operation.didCompleteCount == 1 })
    #expect(operation.result == nil)
    #expect(eventually { outcomes.all.count == 1 })
    #expect(outcomes.all.first! == nil)
  }

  @Test func cancellingAnExecutingOperationFinishesIt() {
    let queue = OperationQueue()
    let operation = ProbeOperation()
    queue.addOperation(operation)
    #expect(eventually { operation.isExecuting })
    operation.cancel()
    #expect(operation.isCancelled)
    #expect(operation.isFinished)
    #expect(!operation.isExecuting)
    #expect(waitUntilAllOperationsAreFinished(queue))
    #expect(operation.result == nil)
    expectEqual(operation.didCompleteCount, 1)
  }

  @Test func theFirstOfFinishAndCancelWins() throws {
    let queue = OperationQueue()
    let finished = ProbeOperation()
    let cancelled = ProbeOperation()
    queue.addOperations([finished, cancelled], waitUntilFinished: false)
    #expect(eventually { finished.isExecuting && cancelled.isExecuting })
    finished.finish(with: .success(1))
    finished.finish(with: .success(2))
    finished.cancel()
    cancelled.cancel()
    cancelled.cancel()
    cancelled.finish(with: .success(3))
    #expect(waitUntilAllOperationsAreFinished(queue))
    #expect(try finished.result?.get() == 1)
    #expect(!finished.isCancelled)
    #expect(cancelled.result == nil)
    #expect(cancelled.isCancelled)
    expectEqual(finished.didCompleteCount, 1)
    expectEqual(cancelled.didCompleteCount, 1)
  }

  @Test func handleCompletionRunsOnTheGivenQueue() {
    let queue = OperationQueue()
    let delivery = DispatchQueue(label: "delivery")
    let key = DispatchSpecificKey<Int>()
    delivery.setSpecific(key: key, value: 7)
    let seen = Shared([Int?]())
    let operation = ProbeOperation(finishInMain: .success(1))
    operation.handleCompletion(onQueue: delivery) { _ in
      seen.withLock { $0.append(DispatchQueue.getSpecific(key: key)) }
    }
    queue.addOperation(operation)
    #expect(waitUntilAllOperationsAreFinished(queue))
    #expect(eventually { seen.withLock { $0.count } == 1 })
    #expect(seen.withLock { $0 } == [7])
  }

  @Test func aFinishedOperationIsFreed() {
    weak var weakOperation: AsynchronousOperation<Int, ExtTestError>?
    let queue = OperationQueue()
    do {
      let operation = ProbeOperation(finishInMain: .success(1))
      operation.handleCompletion(onQueue: nil) { _ in _ = operation }
      weakOperation = operation
      queue.addOperation(operation)
    }
    #expect(waitUntilAllOperationsAreFinished(queue))
    #expect(eventually { weakOperation == nil })
  }
}
