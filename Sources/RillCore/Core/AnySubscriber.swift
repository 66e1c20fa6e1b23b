/// A type-erasing subscriber.
///
/// Use it to wrap an existing subscriber whose details you don't want to expose, or to build a subscriber
/// from closures.
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible
{
  let box: AnySubscriberBox<Input, Failure>

  public let combineIdentifier: CombineIdentifier

  /// Creates a type-erasing subscriber to wrap an existing subscriber.
  public init<S: Subscriber>(_ s: S) where Input == S.Input, Failure == S.Failure {
    if let erased = s as? AnySubscriber<Input, Failure> {
      self = erased
      return
    }
    box = SubscriberBox(s)
    combineIdentifier = s.combineIdentifier
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
    box = AnySubscriberBox(
      receiveSubscription: receiveSubscription,
      receiveValue: receiveValue,
      receiveCompletion: receiveCompletion
    )
    combineIdentifier = CombineIdentifier()
  }

  public var description: String { box.description }

  public var customMirror: Mirror { box.customMirror }

  public var playgroundDescription: Any { box.playgroundDescription }

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

/// What an `AnySubscriber` holds: a subscriber made of closures, each optional.
///
/// An `AnySubscriber` that wraps a subscriber holds the subclass ``SubscriberBox``, which calls the wrapped
/// subscriber instead and leaves the closures `nil`; either way one object, allocated once.
// SAFETY: immutable after init.
class AnySubscriberBox<Input, Failure: Error>: @unchecked Sendable {
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

  func receive(subscription: any Subscription) {
    receiveSubscription?(subscription)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    receiveValue?(input) ?? .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    receiveCompletion?(completion)
  }

  var description: String { "Anonymous AnySubscriber" }

  var customMirror: Mirror { Mirror(reflecting: description) }

  var playgroundDescription: Any { description }
}

/// What an `AnySubscriber` that wraps a subscriber holds: it forwards every call to the wrapped subscriber.
// SAFETY: immutable after init.
final class SubscriberBox<Base: Subscriber>: AnySubscriberBox<Base.Input, Base.Failure>, @unchecked Sendable {
  let base: Base

  init(_ base: Base) {
    self.base = base
    super.init(receiveSubscription: nil, receiveValue: nil, receiveCompletion: nil)
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

  override var description: String {
    (base as? any CustomStringConvertible)?.description ?? "\(Base.self)"
  }

  override var customMirror: Mirror { Mirror(reflecting: base) }

  override var playgroundDescription: Any {
    (base as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription ?? description
  }
}
