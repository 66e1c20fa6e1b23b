import Dispatch
import Foundation
import Rill
import RillExt
import RillTestSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct UISchedulerTests {
  @Test @MainActor func onTheMainQueueTheActionRunsAtOnce() {
    var ran = false
    UIScheduler.shared.schedule { ran = true }
    #expect(ran)
  }

  @Test func fromAnotherQueueTheActionHopsToTheMainQueue() async {
    // Where the main queue runs on a worker thread (a program in `dispatchMain()` on Linux, such as this test
    // runner), "on the main queue" is what counts, not the thread.
    let queueKey = DispatchSpecificKey<String>()
    DispatchQueue.main.setSpecific(key: queueKey, value: "main")
    let queue = DispatchQueue(label: "elsewhere")
    queue.setSpecific(key: queueKey, value: "elsewhere")
    let ranOn = await withCheckedContinuation { continuation in
      queue.async {
        UIScheduler.shared.schedule { continuation.resume(returning: DispatchQueue.getSpecific(key: queueKey)) }
      }
    }
    expectEqual(ranOn, "main")
  }

  @Test @MainActor func delayedActionsGoThroughTheMainQueue() async {
    var ran = false
    let scheduler = UIScheduler.shared
    await withCheckedContinuation { continuation in
      scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(20))) {
        ran = true
        continuation.resume()
      }
      // Even when due at once, a delayed action waits for the main queue's next turn.
      #expect(!ran)
    }
    #expect(ran)
  }

  @Test @MainActor func repeatingActionsStopWhenCancelled() async {
    let scheduler = UIScheduler.shared
    var count = 0
    var cancellable: (any Cancellable)?
    await withCheckedContinuation { continuation in
      cancellable = scheduler.schedule(after: scheduler.now, interval: .milliseconds(5)) {
        count += 1
        if count == 3 {
          cancellable?.cancel()
          continuation.resume()
        }
      }
    }
    try? await Task.sleep(nanoseconds: 30_000_000)
    expectEqual(count, 3)
  }

  @Test func itsTimeIsTheMainQueuesAndItsErasedFormIsShared() {
    let before = DispatchQueue.main.now
    let now = UIScheduler.shared.now
    #expect(now >= before)
    expectEqual(UIScheduler.shared.minimumTolerance, DispatchQueue.main.minimumTolerance)
    let erased: AnySchedulerOf<UIScheduler> = .shared
    #expect(erased.now >= now)
  }

  @Test func itsTestAndImmediateSchedulersHaveItsTimeType() {
    let test: TestSchedulerOf<UIScheduler> = UIScheduler.test
    var fired = false
    test.schedule(after: test.now.advanced(by: .seconds(1))) { fired = true }
    test.advance(by: .seconds(1))
    #expect(fired)
    let immediate: ImmediateSchedulerOf<UIScheduler> = UIScheduler.immediate
    var ran = false
    immediate.schedule { ran = true }
    #expect(ran)
    expectEqual(test.now, immediate.now.advanced(by: .seconds(1)))
  }
}
