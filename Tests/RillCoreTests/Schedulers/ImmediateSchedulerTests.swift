import RillCore
import RillTestSupport
import Testing

@Suite struct ImmediateSchedulerTests {
  /// As in Combine, a repeating action runs once, right away, and what is returned is the empty subscription.
  @Test func repeatingActionRunsOnceAndReturnsTheEmptySubscription() {
    var runs = 0
    let scheduler = ImmediateScheduler.shared
    let cancellable = scheduler.schedule(after: scheduler.now, interval: 10) { runs += 1 }
    expectEqual(runs, 1)
    expectEqual(String(describing: cancellable), "Empty")
    cancellable.cancel()
    expectEqual(runs, 1)
  }
}
