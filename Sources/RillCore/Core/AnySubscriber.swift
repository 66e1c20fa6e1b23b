/// A type-erasing subscriber.
///
/// Use it to wrap an existing subscriber whose details you don't want to expose, or to build a subscriber
/// from closures.
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible
{
  @usableFromInline let box: AnySubscriberBox<Input, Failure>

  public let combineIdentifier: CombineIdentifier

  /// Creates a type-erasing subscriber to wrap an existing subscriber.
  @inlinable
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
  @inlinable
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

  @inlinable
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
/// subscriber instead. A value reaches the wrapped subscriber through the `receiveValue` closure, which
/// `SubscriberBox` makes where the subscriber's type is known (`AnySubscriber.init` is inlinable), so that no value
/// lands in unspecialised generic code; subscriptions and completions, one each per subscription, go through
/// overridden methods. Wrapping a subscriber that is a class allocates the box alone; one that is not a class also
/// allocates the closure's context, once.
// SAFETY: immutable after init.
@usableFromInline
class AnySubscriberBox<Input, Failure: Error>: @unchecked Sendable {
  private let receiveSubscription: ((any Subscription) -> Void)?
  @usableFromInline let receiveValue: ((Input) -> Subscribers.Demand)?
  private let receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?

  @usableFromInline
  init(
    receiveSubscription: ((any Subscription) -> Void)?,
    receiveValue: ((Input) -> Subscribers.Demand)?,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
  ) {
    self.receiveSubscription = receiveSubscription
    self.receiveValue = receiveValue
    self.receiveCompletion = receiveCompletion
  }

  @usableFromInline
  func receive(subscription: any Subscription) {
    receiveSubscription?(subscription)
  }

  @inlinable
  final func receive(_ input: Input) -> Subscribers.Demand {
    receiveValue?(input) ?? Subscribers.Demand(rawValue: 0)
  }

  @usableFromInline
  func receive(completion: Subscribers.Completion<Failure>) {
    receiveCompletion?(completion)
  }

  @usableFromInline
  var description: String { "Anonymous AnySubscriber" }

  @usableFromInline
  var customMirror: Mirror { Mirror(reflecting: description) }

  @usableFromInline
  var playgroundDescription: Any { description }
}

/// What an `AnySubscriber` that wraps a subscriber holds: it forwards every call to the wrapped subscriber.
// SAFETY: immutable after init.
@usableFromInline
final class SubscriberBox<Base: Subscriber>: AnySubscriberBox<Base.Input, Base.Failure>, @unchecked Sendable {
  @usableFromInline let base: Base

  @inlinable
  init(_ base: Base) {
    self.base = base
    super.init(receiveSubscription: nil, receiveValue: { base.receive($0) }, receiveCompletion: nil)
  }

  @usableFromInline
  override func receive(subscription: any Subscription) {
    base.receive(subscription: subscription)
  }

  @usableFromInline
  override func receive(completion: Subscribers.Completion<Base.Failure>) {
    base.receive(completion: completion)
  }

  @usableFromInline
  override var description: String {
    (base as? any CustomStringConvertible)?.description ?? "\(Base.self)"
  }

  @usableFromInline
  override var customMirror: Mirror { Mirror(reflecting: base) }

  @usableFromInline
  override var playgroundDescription: Any {
    (base as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription ?? description
  }
}
