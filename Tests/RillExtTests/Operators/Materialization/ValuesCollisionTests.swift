import Rill
import RillExt
import RillTestSupport
import RillTesting
import Testing

/// Combine's `values` property and CombineExt's `values()` operator, side by side.
///
/// The property is an asynchronous sequence and the operator a publisher; they share a name. An app that imports both
/// Rill and RillExt must be able to use each, as it can with Combine and CombineExt.
@Suite struct ValuesCollisionTests {
  @Test func thePropertyAndTheOperatorAreBothUsable() async {
    let events = [1, 2, 3].publisher.setFailureType(to: ExtTestError.self).materialize()

    let operatorValues: AnyPublisher<Int, Never> = events.values()
    let subscriber = TestSubscriber<Int, Never>()
    operatorValues.subscribe(subscriber)
    expectEqual(subscriber.eventDescriptions, ["subscription", "value(1)", "value(2)", "value(3)", "finished"])

    var received: [Event<Int, ExtTestError>] = []
    for await event in events.values {
      received.append(event)
    }
    expectEqual(received, [.value(1), .value(2), .value(3), .finished])

    let sequence: AsyncPublisher<Publishers.Materialize<Publishers.Sequence<[Int], ExtTestError>>> =
      events.values
    var count = 0
    for await _ in sequence { count += 1 }
    expectEqual(count, 4)

    var plain: [Int] = []
    for await value in events.values().values { plain.append(value) }
    expectEqual(plain, [1, 2, 3])
  }
}
