import Foundation
import RillCore
import RillTestSupport
import Testing

/// A model that guards its list with a lock of its own and has no `@Published` property.
private final class LockedListModel: ObservableObject, @unchecked Sendable {
  // SAFETY: `names` is only touched with `lock` held.
  private let lock = NSLock()
  private var names: [String] = []

  func append(_ name: String) {
    lock.withLock { names.append(name) }
  }
}

/// The same model with a `@Published` property beside the guarded list.
private final class PublishingLockedListModel: ObservableObject, @unchecked Sendable {
  // SAFETY: `names` is only touched with `lock` held; `count` is only written by the test's one writer.
  private let lock = NSLock()
  private var names: [String] = []
  @Published var count = 0

  func append(_ name: String) {
    lock.withLock { names.append(name) }
  }
}

/// The same model announcing its changes itself, from a `willSet`.
private final class AnnouncingLockedListModel: ObservableObject, @unchecked Sendable {
  // SAFETY: `names` is only touched with `lock` held.
  private let lock = NSLock()
  private var names: [String] = []
  var revision = 0 {
    willSet { objectWillChange.send() }
  }

  func append(_ name: String) {
    lock.withLock { names.append(name) }
  }
}

private final class Owner {}

/// A model that keeps an `unowned` reference to an owner that may be gone: reading that field would trap.
private final class OwnedModel: ObservableObject {
  unowned let owner: Owner
  @Published var title = "a"

  init(owner: Owner) {
    self.owner = owner
  }
}

/// A model whose custom mirror hides its stored properties, `@Published` ones included.
private final class MirroredModel: ObservableObject, CustomReflectable {
  @Published var name = "a"
  @Published var count = 0

  var customMirror: Mirror { Mirror(self, children: ["summary": "\(name) × \(count)"]) }
}

/// A base class that hides its fields from mirrors, and a subclass with `@Published` fields of its own.
private class MirroredBase: ObservableObject, CustomReflectable {
  @Published var base = 0

  var customMirror: Mirror { Mirror(self, children: [:], ancestorRepresentation: .suppressed) }
}

private final class MirroredDerived: MirroredBase {
  @Published var derived = "a"
}

/// A generic model: each specialization is a class of its own.
private final class GenericModel<Value>: ObservableObject {
  @Published var value: Value

  init(_ value: Value) {
    self.value = value
  }
}

/// Fresh models for the concurrent first access.
private final class FreshModel: ObservableObject, @unchecked Sendable {
  // SAFETY: the test writes the properties from one thread, after the concurrent reads.
  @Published var first = 0
  @Published var second = 0
}

/// The default `objectWillChange` finds the `@Published` fields from the class, reading no other stored property.
@Suite struct ObjectWillChangeFieldTests {
  /// Reading `objectWillChange` while another thread writes a property the model guards with its own lock never
  /// touches that property: with or without `@Published` fields, and with `objectWillChange.send()` in a `willSet`.
  @Test(.tags(.stress)) func aModelThatGuardsItsStateWithItsOwnLockCanBeObservedFromAnotherThread() async {
    await #expect(processExitsWith: .success) {
      let model = LockedListModel()
      ObjectWillChangeFieldTests.hammer(write: { model.append("\($0)") }, read: { _ = model.objectWillChange })
    }
    await #expect(processExitsWith: .success) {
      let model = PublishingLockedListModel()
      ObjectWillChangeFieldTests.hammer(write: { model.append("\($0)") }, read: { _ = model.objectWillChange })
    }
    await #expect(processExitsWith: .success) {
      let model = AnnouncingLockedListModel()
      ObjectWillChangeFieldTests.hammer(
        write: { model.append("\($0)") },
        read: {
          model.revision += 1
          _ = model.objectWillChange
        }
      )
    }
  }

  /// Writes on a thread of its own while the calling thread reads, 20,000 times each.
  static func hammer(write: @escaping @Sendable (Int) -> Void, read: () -> Void) {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      for index in 0..<20_000 { write(index) }
      done.signal()
    }
    for _ in 0..<20_000 { read() }
    done.wait()
  }

  /// A stored property that cannot be read any more (an `unowned` reference whose object is gone) is never read.
  @Test func aFieldThatCannotBeReadIsNotRead() async {
    await #expect(processExitsWith: .success) {
      var owner: Owner? = Owner()
      let model = OwnedModel(owner: owner!)
      owner = nil
      var signals = 0
      let cancellable = model.objectWillChange.sink { signals += 1 }
      model.title = "b"
      cancellable.cancel()
      if signals != 1 { exit(1) }
    }
  }

  /// A model whose custom mirror hides its `@Published` fields still signals.
  @Test func aCustomReflectableModelSignals() {
    let model = MirroredModel()
    var signals = 0
    let cancellable = model.objectWillChange.sink { signals += 1 }
    model.name = "b"
    model.count = 1
    expectEqual(signals, 2)
    #expect(model.objectWillChange === model.objectWillChange)
    cancellable.cancel()
  }

  /// The fields of the superclasses count too, whatever their mirrors show.
  @Test func superclassFieldsShareThePublisher() {
    let model = MirroredDerived()
    var signals = 0
    let cancellable = model.objectWillChange.sink { signals += 1 }
    model.base = 1
    model.derived = "b"
    expectEqual(signals, 2)
    cancellable.cancel()
  }

  /// Each specialization of a generic model finds its own field.
  @Test func genericModelsSignal() {
    let numbers = GenericModel(1)
    let words = GenericModel("a")
    var signals: [String] = []
    let first = numbers.objectWillChange.sink { signals.append("numbers") }
    let second = words.objectWillChange.sink { signals.append("words") }
    numbers.value = 2
    words.value = "b"
    expectEqual(signals, ["numbers", "words"])
    first.cancel()
    second.cancel()
  }

  /// Threads asking a fresh model for its publisher at once all get the same one, which every field signals.
  @Test(.tags(.stress)) func concurrentFirstAccessesGetOnePublisher() {
    for _ in 0..<200 {
      let model = FreshModel()
      let seen = IdentifierSet()
      DispatchQueue.concurrentPerform(iterations: 8) { _ in
        seen.insert(ObjectIdentifier(model.objectWillChange))
      }
      expectEqual(seen.count, 1)
      var signals = 0
      let cancellable = model.objectWillChange.sink { signals += 1 }
      model.first = 1
      model.second = 1
      expectEqual(signals, 2)
      cancellable.cancel()
    }
  }
}

/// Object identifiers recorded from several threads.
private final class IdentifierSet: @unchecked Sendable {
  // SAFETY: `identifiers` is only touched with `lock` held.
  private let lock = NSLock()
  private var identifiers: Set<ObjectIdentifier> = []

  func insert(_ identifier: ObjectIdentifier) {
    lock.withLock { _ = identifiers.insert(identifier) }
  }

  var count: Int { lock.withLock { identifiers.count } }
}
