import Dispatch
import Foundation
import Rill
import RillTestSupport
import Testing

@testable import RillExt

@Suite struct UnimplementedSchedulerTests {
  @Test func readingTheTimeStopsTheTestProcessWithThePrefixedMessage() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = RunLoop.unimplemented.now
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("RunLoop - An unimplemented scheduler was asked the current time."))
  }

  @Test func readingTheMinimumToleranceStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = OperationQueue.unimplemented.minimumTolerance
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("OperationQueue - An unimplemented scheduler was asked its minimum tolerance."))
  }

  @Test func schedulingAtOnceStopsBeforeTheActionRuns() async {
    let result = await #expect(
      processExitsWith: .failure,
      observing: [\.standardOutputContent, \.standardErrorContent]
    ) {
      DispatchQueue.unimplemented.schedule { print("the action ran") }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("DispatchQueue - An unimplemented scheduler scheduled an action to run immediately."))
    let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
    #expect(!output.contains("the action ran"))
  }

  @Test func schedulingLaterStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let scheduler = UnimplementedSchedulerOf<DispatchQueue>("Search", now: .init(.init(uptimeNanoseconds: 1)))
      scheduler.schedule(after: .init(.init(uptimeNanoseconds: 5)), tolerance: .zero, options: nil) {}
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("Search - An unimplemented scheduler scheduled an action to run later."))
  }

  @Test func schedulingOnATimerStopsThroughAnErasedScheduler() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let scheduler = AnySchedulerOf<DispatchQueue>.unimplemented("Feed")
      _ = Just(1).delay(for: .seconds(1), scheduler: scheduler).sink { _ in }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("Feed - An unimplemented scheduler"))
  }

  @Test func withoutAPrefixTheMessageStandsAlone() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = UnimplementedScheduler<RunLoop.SchedulerTimeType, Never>(now: .init(Date())).now
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("Fatal error: An unimplemented scheduler was asked the current time."))
  }

  @Test func codeThatNeverSchedulesPassesWithAnUnimplementedScheduler() {
    let scheduler = AnySchedulerOf<DispatchQueue>.unimplemented
    var values: [Int] = []
    // Building a pipeline on the scheduler and passing values that never reach it touch nothing of it.
    let subject = PassthroughSubject<Int, Never>()
    let cancellable = subject.filter { $0 > 10 }.receive(on: scheduler).sink { values.append($0) }
    subject.send(1)
    subject.send(2)
    expectEqual(values, [])
    cancellable.cancel()
  }

  @Test func prefixesNameTheSchedulerTheyStandFor() {
    expectEqual(DispatchQueue.unimplemented.prefix, "DispatchQueue")
    expectEqual(OperationQueue.unimplemented.prefix, "OperationQueue")
    expectEqual(RunLoop.unimplemented.prefix, "RunLoop")
    expectEqual(RunLoop.unimplemented("Custom").prefix, "Custom")
    expectEqual(DispatchQueue.failing.prefix, "DispatchQueue")
    #expect(FailingSchedulerOf<RunLoop>("Old", now: .init(Date())).prefix == "Old")
  }

  @Test func outsideATestProcessTheReportGoesToStandardErrorAndTheProgramGoesOn() {
    #expect(UnimplementedFailure.isTesting)
    UnimplementedFailure.report("a report from a test of the report", inTestProcess: false)
  }
}
