import Foundation
import RillCore
import RillTestSupport
import Testing

/// An object without `@Published` properties that announces its changes itself.
private final class ManualModel: ObservableObject {
  var value = 0 {
    willSet { objectWillChange.send() }
  }
}

/// An object without `@Published` properties and without state, which threads may share.
private final class QuietModel: ObservableObject, Sendable {}

/// The `objectWillChange` of an object without `@Published` properties.
@Suite struct ObservableObjectTests {
  /// As in Combine, the object gets one publisher for its lifetime.
  @Test func theObjectHasOnePublisher() {
    let model = ManualModel()
    #expect(model.objectWillChange === model.objectWillChange)
  }

  /// The pattern `willSet { objectWillChange.send() }` reaches a subscriber.
  @Test func aSendFromWillSetReachesASink() {
    let model = ManualModel()
    var seen: [Int] = []
    let cancellable = model.objectWillChange.sink { seen.append(model.value) }
    model.value = 1
    model.value = 2
    expectEqual(seen, [0, 1])
    cancellable.cancel()
    model.value = 3
    expectEqual(seen, [0, 1])
  }

  /// The publisher does not keep its object alive, and a subscription to it does not either.
  @Test func thePublisherDoesNotKeepTheObjectAlive() {
    weak var weakModel: ManualModel?
    var cancellable: AnyCancellable?
    do {
      let model = ManualModel()
      weakModel = model
      cancellable = model.objectWillChange.sink {}
    }
    #expect(weakModel == nil)
    cancellable?.cancel()
  }

  /// An object made at the address of a freed one gets a publisher of its own.
  @Test func anObjectAtAReusedAddressGetsANewPublisher() throws {
    var freedAddress: ObjectIdentifier?
    var freedPublisher: ObservableObjectPublisher?
    do {
      let model = ManualModel()
      freedAddress = ObjectIdentifier(model)
      freedPublisher = model.objectWillChange
    }
    // The allocator hands a freed block back soon; the objects that do not land there are kept, so that each try
    // gets a new address.
    var kept: [ManualModel] = []
    var reused: ManualModel?
    for _ in 0..<10_000 {
      let model = ManualModel()
      if ObjectIdentifier(model) == freedAddress {
        reused = model
        break
      }
      kept.append(model)
    }
    let model = try #require(reused, "no object landed at the freed address")
    #expect(model.objectWillChange !== freedPublisher)
    #expect(model.objectWillChange === model.objectWillChange)
    var count = 0
    let cancellable = model.objectWillChange.sink { count += 1 }
    freedPublisher?.send()
    expectEqual(count, 0)
    model.value = 1
    expectEqual(count, 1)
    cancellable.cancel()
    _ = kept
  }

  /// Objects asking for their publisher from several threads at once each get one publisher, the same every time.
  @Test func concurrentAccessGivesEachObjectOnePublisher() {
    let models = (0..<8).map { _ in QuietModel() }
    let seen = PublisherRecord()
    DispatchQueue.concurrentPerform(iterations: 8 * 200) { index in
      let model = models[index % 8]
      seen.record(index % 8, ObjectIdentifier(model.objectWillChange))
    }
    for (index, model) in models.enumerated() {
      expectEqual(seen.identifiers(of: index), [ObjectIdentifier(model.objectWillChange)])
    }
  }
}

/// The publishers each of eight objects handed out, recorded from several threads.
private final class PublisherRecord: @unchecked Sendable {
  private let lock = NSLock()
  private var seen = [Set<ObjectIdentifier>](repeating: [], count: 8)

  func record(_ index: Int, _ identifier: ObjectIdentifier) {
    lock.withLock { _ = seen[index].insert(identifier) }
  }

  func identifiers(of index: Int) -> Set<ObjectIdentifier> {
    lock.withLock { seen[index] }
  }
}
