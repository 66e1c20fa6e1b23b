import Foundation
import RillExt
import RillTestSupport
import RillTesting
import Testing

/// RillExt also has a `TestScheduler`, combine-schedulers' generic one; these tests use RillTesting's.
private typealias TestScheduler = RillTesting.TestScheduler

/// The events of a timeline as `lane #n kind @time`, for comparisons.
func laneEvents(_ timeline: Timeline) -> [String] {
  timeline.events.map { "\($0.lane) #\($0.subscription) \($0.kind) @\($0.time)" }
}

@Suite struct LaneTests {
  @Test func docMarbles() {
    let timeline = Timeline()
    #expect(TestScheduler.marbles("-1-2-|") { $0.lane("numbers", timeline: timeline) } == "-1-2-|")
    #expect(TestScheduler.marbles("-1-2-^") { $0.lane("numbers", timeline: timeline) } == "-1-2-^")
  }

  @Test func recordsEachEventWithItsVirtualTime() {
    let scheduler = TestScheduler()
    let timeline = Timeline(clock: .virtual(scheduler))
    let result = scheduler.marbles("-a-b-|") { $0.lane("letters", timeline: timeline) }
    expectEqual(result, "-a-b-|")
    #expect(
      laneEvents(timeline) == [
        "letters #1 subscription @0", "letters #1 request(unlimited) @0", "letters #1 value(a) @1",
        "letters #1 value(b) @3", "letters #1 finished @5",
      ]
    )
    let event = timeline.events[2]
    #expect(event.kind == .value("a") && event.lane == "letters" && event.subscription == 1)
    #expect(
      event.source.hasPrefix("LaneTests.swift:") && event.source.hasSuffix("recordsEachEventWithItsVirtualTime()")
    )
  }

  @Test func failureCancelAndTransformValue() {
    let scheduler = TestScheduler()
    let timeline = Timeline(clock: .virtual(scheduler))
    _ = scheduler.marbles("-1-^", as: Int.self) { $0.lane("failing", timeline: timeline) { "n=\($0)" } }
    #expect(
      laneEvents(timeline).suffix(2) == ["failing #1 value(n=1) @1", "failing #1 failure(MarbleError) @3"]
    )
    let (upstream, subscriber) = extSubscribe { $0.lane("cancelled", timeline: timeline) }
    upstream.send(7)
    subscriber.cancel()
    subscriber.cancel()
    subscriber.request(.max(1))
    #expect(
      laneEvents(timeline).suffix(4) == [
        "cancelled #1 subscription @3", "cancelled #1 request(unlimited) @3", "cancelled #1 value(7) @3",
        "cancelled #1 cancel @3",
      ]
    )
    #expect(upstream.isCancelled && upstream.requestedDemands == [.unlimited])
  }

  @Test func passesDemandThroughAndRecordsIt() {
    let timeline = Timeline()
    let (upstream, subscriber) = extSubscribe(
      { $0.lane("demand", timeline: timeline) },
      initialDemand: .max(2),
      demandPerValue: .max(1)
    )
    expectEqual(upstream.send(1), .max(1))
    subscriber.request(.max(3))
    upstream.send(completion: .finished)
    expectEqual(upstream.requestedDemands, [.max(2), .max(3)])
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "finished"])
    #expect(
      timeline.events.map(\.kind) == [
        .subscription, .request(.max(2)), .value("1"), .request(.max(1)), .request(.max(3)), .finished,
      ]
    )
  }

  @Test func filterChoosesWhatIsRecorded() {
    let timeline = Timeline()
    _ = extRun({ $0.lane("events", filter: .event, timeline: timeline) }, [1])
    _ = extRun({ $0.lane("life", filter: .subscription, timeline: timeline) }, [1], then: .failure(.upstream))
    _ = extRun({ $0.lane("nothing", filter: [], timeline: timeline) }, [1])
    #expect(
      timeline.events.map { "\($0.lane) \($0.kind)" } == [
        "events value(1)", "events finished", "life subscription", "life request(unlimited)",
        "life failure(upstream)",
      ]
    )
    expectEqual(Timeline.LaneTypeOptions.all, [.subscription, .event])
  }

  @Test func numbersSubscriptionsPerLane() {
    let timeline = Timeline()
    let subject = PassthroughSubject<Int, Never>()
    let shared = subject.lane("shared", timeline: timeline)
    let first = shared.sink { _ in }
    let second = shared.lane("outer", timeline: timeline).sink { _ in }
    subject.send(1)
    first.cancel()
    second.cancel()
    let values = timeline.events.filter { if case .value = $0.kind { true } else { false } }
    #expect(values.map { "\($0.lane) #\($0.subscription)" } == ["shared #1", "shared #2", "outer #1"])
  }

  @Test func namesThreadsInTheOrderItSeesThem() {
    let timeline = Timeline()
    let subject = PassthroughSubject<Int, Never>()
    let cancellable = subject.lane("threads", timeline: timeline).sink { _ in }
    subject.send(1)
    let done = DispatchSemaphore(value: 0)
    Thread {
      subject.send(2)
      done.signal()
    }
    .start()
    done.wait()
    subject.send(3)
    cancellable.cancel()
    // subscription, request, 1, 2, 3, cancel
    let threads = timeline.events.map(\.thread)
    expectEqual(threads.count, 6)
    #expect(threads[0] == threads[2] && threads[2] == threads[4] && threads[4] == threads[5])
    #expect(threads[0] == "main" || threads[0] == "thread 1")
    #expect(threads[3] == (threads[0] == "main" ? "thread 1" : "thread 2"))
  }

  @Test func wallClockTimesAreNowAndNeverGoBack() {
    let timeline = Timeline()
    let before = Int64(Date().timeIntervalSince1970 * 1_000_000_000)
    _ = extRun({ $0.lane("wall", timeline: timeline) }, Array(0..<100))
    let after = Int64(Date().timeIntervalSince1970 * 1_000_000_000)
    let times = timeline.events.map(\.time)
    expectEqual(times, times.sorted())
    #expect(times.first! >= before - 50_000_000 && times.last! <= after + 50_000_000)
  }

  @Test func keepsTheMostRecentEventsWithinCapacity() {
    let timeline = Timeline(capacity: 4)
    _ = extRun({ $0.lane("ring", timeline: timeline) }, [1, 2, 3, 4])
    expectEqual(timeline.events.map(\.kind), [.value("2"), .value("3"), .value("4"), .finished])
    expectEqual(timeline.droppedEventCount, 3)
    timeline.removeAll()
    #expect(timeline.events.isEmpty && timeline.droppedEventCount == 0)
    _ = extRun({ $0.lane("ring", timeline: timeline) }, [5])
    #expect(timeline.events.map { "\($0.kind) #\($0.subscription)" }.first == "subscription #2")
  }

  @Test func aSecondSubscriptionIsCancelledAndNotRecorded() {
    let timeline = Timeline()
    let (upstream, subscriber) = extSubscribe { $0.lane("twice", timeline: timeline) }
    let extra = TestSubscription()
    upstream.send(subscription: extra)
    #expect(extra.isCancelled)
    expectEqual(subscriber.subscriptionCount, 1)
    #expect(timeline.events.filter { $0.kind == .subscription }.count == 1)
  }

  @Test func reentrantSendFromDownstream() {
    let timeline = Timeline()
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = subject.lane("reentrant", timeline: timeline).sink { value in
      received.append(value)
      if value == 1 { subject.send(2) }
    }
    subject.send(1)
    cancellable.cancel()
    expectEqual(received, [1, 2])
    #expect(timeline.events.compactMap { if case .value(let value) = $0.kind { value } else { nil } } == ["1", "2"])
  }

  @Test func freedAfterCompletionAndAfterCancel() {
    let timeline = Timeline()
    let lane = { (upstream: ExtUpstream) in upstream.lane("memory", timeline: timeline) }
    #expect(extPipelineIsFreed(lane, drive: { upstream, _ in upstream.send(completion: .finished) }))
    #expect(extPipelineIsFreed(lane, drive: { _, subscriber in subscriber.cancel() }))
  }

  @Test func keepsTheContract() {
    let timeline = Timeline(capacity: 1_000)
    expectContract("lane", { [1, 2, 3].publisher.lane("contract", timeline: timeline) })
    expectContract("lane of a subject", { PassthroughSubject<Int, Never>().lane("contract", timeline: timeline) })
  }

  @Test func describesValuesAsStringDescribingDoes() {
    struct Plain { let a = 1 }
    struct Both: TextOutputStreamable, CustomStringConvertible {
      var description: String { "description" }
      func write<Target: TextOutputStream>(to target: inout Target) { target.write("streamed") }
    }
    final class Object: CustomStringConvertible {
      var description: String { "object" }
    }
    func described<Value>(_ value: Value) -> String {
      let timeline = Timeline()
      _ = Just(value).lane("describe", filter: .event, timeline: timeline).sink { _ in }
      if case .value(let text) = timeline.events.first?.kind { return text }
      return "nothing recorded"
    }
    expectEqual(described(42), String(describing: 42))
    expectEqual(described("text"), "text")
    expectEqual(described(Character("c")), "c")
    expectEqual(described(Optional(1)), String(describing: Optional(1)))
    expectEqual(described(Optional("text")), String(describing: Optional("text")))
    expectEqual(described(Optional(Object())), String(describing: Optional(Object())))
    expectEqual(described(Plain()), String(describing: Plain()))
    expectEqual(described(Both()), "streamed")
    expectEqual(described(Object()), "object")
    expectEqual(described((1, "a")), String(describing: (1, "a")))
    expectEqual(described([1, 2]), "[1, 2]")
    expectEqual(described(ExtTestError.upstream), "upstream")
  }

  @Test func recordsIntoTheSharedTimelineByDefault() {
    let lane = Just(1).lane("shared")
    #expect(lane.timeline === Timeline.shared && lane.name == "shared" && lane.filter == .all)
    #expect(lane.transformValue == nil)
    #expect(Just(1).lane("described") { "n=\($0)" }.transformValue?(2) == "n=2")
  }
}
