/// A type-erasing subscriber.
///
/// Use it to wrap an existing subscriber whose details you don't want to expose, or to build a subscriber
/// from closures.
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible
{
  let box: SubscriberBoxBase<Input, Failure>

  let descriptionThunk: () -> String

  let mirrorThunk: () -> Mirror

  let playgroundThunk: () -> Any

  public let combineIdentifier: CombineIdentifier

  /// Creates a type-erasing subscriber to wrap an existing subscriber.
  public init<S: Subscriber>(_ s: S) where Input == S.Input, Failure == S.Failure {
    if let erased = s as? AnySubscriber<Input, Failure> {
      self = erased
      return
    }
    box = SubscriberBox(s)
    combineIdentifier = s.combineIdentifier
    descriptionThunk = { (s as? any CustomStringConvertible)?.description ?? "\(S.self)" }
    mirrorThunk = { Mirror(reflecting: s) }
    playgroundThunk = {
      (s as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription
        ?? (s as? any CustomStringConvertible)?.description ?? "\(S.self)"
    }
  }

  /// Creates a type-erasing subscriber that forwards to a subject.
  ///
  /// As in Combine, it is the subscriber `subscribe(_:)` attaches a subject with: it passes the first
  /// subscription on to the subject as itself, cancels any other, and does not keep the subject alive.
  public init<S: Subject>(_ s: S) where Input == S.Output, Failure == S.Failure {
    self.init(SubjectSubscriber(s))
  }

  /// Creates a type-erasing subscriber that executes the provided closures.
  public init(
    receiveSubscription: ((any Subscription) -> Void)? = nil,
    receiveValue: ((Input) -> Subscribers.Demand)? = nil,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
  ) {
    box = ClosureSubscriberBox(
      receiveSubscription: receiveSubscription,
      receiveValue: receiveValue,
      receiveCompletion: receiveCompletion
    )
    combineIdentifier = CombineIdentifier()
    descriptionThunk = { "Anonymous AnySubscriber" }
    mirrorThunk = { Mirror(reflecting: "Anonymous AnySubscriber") }
    playgroundThunk = { "Anonymous AnySubscriber" }
  }

  public var description: String { descriptionThunk() }

  public var customMirror: Mirror { mirrorThunk() }

  public var playgroundDescription: Any { playgroundThunk() }

  public func receive(subscription: any Subscription) {
    box.receive(subscription: subscription)
  }

  public func receive(_ value: Input) -> Subscribers.Demand {
    box.receive(value)
  }

  public func receive(completion: Subscribers.Completion<Failure>) {
    box.receive(completion: completion)
  }
}

// SAFETY: immutable after init.
class SubscriberBoxBase<Input, Failure: Error>: @unchecked Sendable {
  init() {}

  func receive(subscription: any Subscription) { fatalError("abstract") }

  func receive(_ input: Input) -> Subscribers.Demand { fatalError("abstract") }

  func receive(completion: Subscribers.Completion<Failure>) { fatalError("abstract") }
}

// SAFETY: immutable after init.
final class SubscriberBox<Base: Subscriber>: SubscriberBoxBase<Base.Input, Base.Failure>, @unchecked Sendable {
  let base: Base

  init(_ base: Base) {
    self.base = base
  }

  override func receive(subscription: any Subscription) {
    base.receive(subscription: subscription)
  }

  override func receive(_ input: Base.Input) -> Subscribers.Demand {
    base.receive(input)
  }

  override func receive(completion: Subscribers.Completion<Base.Failure>) {
    base.receive(completion: completion)
  }
}

// SAFETY: immutable after init.
final class ClosureSubscriberBox<Input, Failure: Error>: SubscriberBoxBase<Input, Failure>, @unchecked Sendable {
  private let receiveSubscription: ((any Subscription) -> Void)?
  private let receiveValue: ((Input) -> Subscribers.Demand)?
  private let receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?

  init(
    receiveSubscription: ((any Subscription) -> Void)?,
    receiveValue: ((Input) -> Subscribers.Demand)?,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
  ) {
    self.receiveSubscription = receiveSubscription
    self.receiveValue = receiveValue
    self.receiveCompletion = receiveCompletion
  }

  override func receive(subscription: any Subscription) {
    receiveSubscription?(subscription)
  }

  override func receive(_ input: Input) -> Subscribers.Demand {
    receiveValue?(input) ?? .none
  }

  override func receive(completion: Subscribers.Completion<Failure>) {
    receiveCompletion?(completion)
  }
}
