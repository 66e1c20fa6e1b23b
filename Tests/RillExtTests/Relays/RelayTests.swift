import RillExt
import RillTestSupport
import RillTesting
import Testing

@Suite struct RelayTests {
  typealias Recorder = TestSubscriber<Int, Never>

  @Test func passthroughDocMarble() {
    let relay = PassthroughRelay<Int>()
    relay.accept(1)
    let recorder = Recorder()
    relay.subscribe(recorder)
    relay.accept(2)
    relay.accept(3)
    expectEqual(recorder.eventDescriptions, ["subscription", "value(2)", "value(3)"])
  }

  @Test func currentValueDocMarble() {
    let relay = CurrentValueRelay(0)
    relay.accept(1)
    let recorder = Recorder()
    relay.subscribe(recorder)
    relay.accept(2)
    expectEqual(recorder.eventDescriptions, ["subscription", "value(1)", "value(2)"])
    expectEqual(relay.value, 2)
  }

  @Test func relaysFinishTheirSubscribersOnlyWhenDeallocated() {
    var passthrough: PassthroughRelay<Int>? = PassthroughRelay()
    var currentValue: CurrentValueRelay<Int>? = CurrentValueRelay(0)
    let first = Recorder()
    let second = Recorder()
    passthrough?.subscribe(first)
    currentValue?.subscribe(second)
    #expect(!first.isCompleted && !second.isCompleted)
    passthrough = nil
    currentValue = nil
    expectEqual(first.eventDescriptions, ["subscription", "finished"])
    expectEqual(second.eventDescriptions, ["subscription", "value(0)", "finished"])
  }

  @Test func voidRelaysAcceptWithoutAnArgument() {
    let relay = PassthroughRelay<Void>()
    var count = 0
    let cancellable = relay.sink { count += 1 }
    relay.accept()
    relay.accept()
    expectEqual(count, 2)
    cancellable.cancel()
  }

  @Test func aFinitePublisherFeedsARelayWithoutFinishingIt() {
    let relay = PassthroughRelay<Int>()
    let recorder = Recorder()
    relay.subscribe(recorder)
    let cancellable = [1, 2, 3].publisher.subscribe(relay)
    relay.accept(4)
    expectEqual(recorder.eventDescriptions, ["subscription", "value(1)", "value(2)", "value(3)", "value(4)"])
    let late = Recorder()
    relay.subscribe(late)
    relay.accept(5)
    expectEqual(late.values, [5])
    cancellable.cancel()
  }

  /// As in CombineExt: the feed asks for values only once the output relay has a subscriber with demand, so the
  /// input's current value reaches a subscriber that comes after the link is made.
  @Test func aCurrentValueReachesASubscriberThatComesAfterTheLink() {
    let input = CurrentValueRelay("initial")
    let output = PassthroughRelay<String>()
    let link = input.subscribe(output)
    let recorder = TestSubscriber<String, Never>()
    output.subscribe(recorder)
    input.accept("1")
    input.accept("2")
    expectEqual(recorder.eventDescriptions, ["subscription", "value(initial)", "value(1)", "value(2)"])

    // The same through `subscribe(_:)` with a publisher.
    let relay = PassthroughRelay<Int>()
    let fed = Just(1).subscribe(relay)
    let late = TestSubscriber<Int, Never>()
    relay.subscribe(late)
    expectEqual(late.eventDescriptions, ["subscription", "value(1)"])
    link.cancel()
    fed.cancel()
  }

  @Test func subscribingARelayToARelayFeedsTheReceiverToTheArgumentAsCombineExtDoes() {
    let input = CurrentValueRelay("initial")
    let output = PassthroughRelay<String>()
    let recorder = TestSubscriber<String, Never>()
    output.subscribe(recorder)
    let link = input.subscribe(output)
    input.accept("1")
    input.accept("2")
    expectEqual(recorder.values, ["initial", "1", "2"])
    let first = PassthroughRelay<String>()
    let second = PassthroughRelay<String>()
    let secondRecorder = TestSubscriber<String, Never>()
    second.subscribe(secondRecorder)
    let passthroughLink = first.subscribe(second)
    first.accept("a")
    expectEqual(secondRecorder.values, ["a"])
    link.cancel()
    passthroughLink.cancel()
    input.accept("3")
    first.accept("b")
    expectEqual(recorder.values, ["initial", "1", "2"])
    expectEqual(secondRecorder.values, ["a"])
  }

  @Test func aRelayFedFromARelayThatIsDeallocatedKeepsWorking() {
    var input: PassthroughRelay<Int>? = PassthroughRelay()
    let output = PassthroughRelay<Int>()
    let recorder = Recorder()
    output.subscribe(recorder)
    let link = input?.subscribe(output)
    input?.accept(1)
    input = nil
    output.accept(2)
    expectEqual(recorder.eventDescriptions, ["subscription", "value(1)", "value(2)"])
    link?.cancel()
  }

  @Test func relaySubscribeRequestsUnlimitedAndCancels() {
    let upstream = TestPublisher<Int, Never>()
    let relay = CurrentValueRelay(0)
    let cancellable = relay.subscribe(upstream)
    // As a current value subject does, at once; a passthrough relay waits for a subscriber's demand.
    expectEqual(upstream.requestedDemands, [.unlimited])
    upstream.send(completion: .finished)
    relay.accept(1)
    expectEqual(relay.value, 1)
    let other = TestPublisher<Int, Never>()
    let second = relay.subscribe(other)
    second.cancel()
    #expect(other.isCancelled)
    cancellable.cancel()
  }

  @Test func demandIsHonouredAsBySubjects() {
    let passthrough = PassthroughRelay<Int>()
    let currentValue = CurrentValueRelay(0)
    let first = Recorder(initialDemand: .max(1))
    let second = Recorder(initialDemand: .none)
    passthrough.subscribe(first)
    currentValue.subscribe(second)
    passthrough.accept(1)
    passthrough.accept(2)
    currentValue.accept(1)
    currentValue.accept(2)
    second.request(.max(1))
    expectEqual(first.values, [1])
    expectEqual(second.values, [2])
  }

  @Test func acceptingFromInsideADeliveryIsDelivered() {
    let relay = PassthroughRelay<Int>()
    let recorder = Recorder(onValue: { [relay] _, value in
      if value < 3 { relay.accept(value + 1) }
      return .none
    })
    relay.subscribe(recorder)
    relay.accept(1)
    expectEqual(recorder.values, [1, 2, 3])
  }

  @Test func nothingArrivesAfterCancel() {
    let relay = CurrentValueRelay(0)
    let recorder = Recorder()
    relay.subscribe(recorder)
    recorder.cancel()
    relay.accept(1)
    expectEqual(recorder.values, [0])
    #expect(!recorder.isCompleted)
  }

  @Test func keepsTheContract() {
    expectContract("CurrentValueRelay", { CurrentValueRelay(1) })
    let passthrough = PassthroughRelay<Int>()
    expectContract(
      "PassthroughRelay",
      { passthrough },
      drive: { _ in
        passthrough.accept(1)
        passthrough.accept(2)
      }
    )
    let current = CurrentValueRelay(0)
    expectContract(
      "CurrentValueRelay accepting",
      { current },
      drive: { _ in
        current.accept(1)
        current.accept(2)
      }
    )
    expectContract("a deallocated relay", { PassthroughRelay<Int>() })
  }

  @Test func subscriptionsAreFreedAfterCancelAndAfterDeallocation() {
    for cancel in [false, true] {
      weak var weakSubscription: AnyObject?
      weak var weakRecorder: Recorder?
      weak var weakRelay: CurrentValueRelay<Int>?
      let keep = CurrentValueRelay(0)
      do {
        let relay = cancel ? keep : CurrentValueRelay(0)
        let recorder = Recorder()
        relay.subscribe(recorder)
        weakRecorder = recorder
        weakSubscription = recorder.subscription as AnyObject?
        if cancel { recorder.cancel() } else { weakRelay = relay }
      }
      #expect(weakSubscription == nil, "cancel: \(cancel)")
      #expect(weakRecorder == nil, "cancel: \(cancel)")
      #expect(weakRelay == nil, "cancel: \(cancel)")
    }
  }
}
