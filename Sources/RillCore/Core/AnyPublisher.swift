/// A publisher that performs type erasure by wrapping another publisher.
///
/// Erasure costs one allocation when the `AnyPublisher` is made and a few per subscription, and one indirect
/// call per event: the wrapped publisher is subscribed through closures made where its type and the
/// subscriber's type are known, so the code that runs per value is specialised on both sides.
///
/// As in Combine, an `AnyPublisher` is not `Sendable`, whatever its `Output`: it can wrap any publisher, such as a
/// `map` whose closure changes an object that is not safe to share, and its type no longer says which. To use a
/// pipeline from several tasks, share the subject it starts from and build the pipeline in each task, or keep it
/// in one actor (the "Sharing a pipeline across tasks in Swift 6" section of Rill's Porting from Combine article).
public struct AnyPublisher<Output, Failure: Error>: CustomStringConvertible, CustomPlaygroundDisplayConvertible {
  @usableFromInline
  let box: AnyPublisherBox<Output, Failure>

  /// Creates a type-erasing publisher to wrap the provided publisher.
  @inlinable
  public init<P: Publisher>(_ publisher: P) where Output == P.Output, Failure == P.Failure {
    if let erased = publisher as? AnyPublisher<Output, Failure> {
      box = erased.box
    } else {
      box = AnyPublisherBox { publisher.receive(subscriber: $0) }
    }
  }

  public var description: String { "AnyPublisher" }

  public var playgroundDescription: Any { description }
}

extension AnyPublisher: Publisher {
  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    box.subscribe(AnyPublisherSubscriber(subscriber))
  }
}

extension Publisher {
  /// Wraps this publisher with a type eraser.
  @inlinable
  public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
    AnyPublisher(self)
  }
}

/// What an `AnyPublisher` holds: how to subscribe the wrapped publisher.
///
/// The closure is made in `AnyPublisher.init`, where the publisher's type is known, so subscribing runs the
/// publisher's specialised code rather than its unspecialised generic implementation. It captures the wrapped
/// publisher, whatever that holds, so it is not `Sendable`.
@usableFromInline
final class AnyPublisherBox<Output, Failure: Error> {
  @usableFromInline
  let subscribe: (AnyPublisherSubscriber<Output, Failure>) -> Void

  @inlinable
  init(subscribe: @escaping (AnyPublisherSubscriber<Output, Failure>) -> Void) {
    self.subscribe = subscribe
  }
}

/// The subscriber an `AnyPublisher` hands to the publisher it wraps: it forwards each event to the real
/// subscriber through closures made where the subscriber's type is known, so no per-value call lands in
/// unspecialised generic code.
///
/// It carries the real subscriber's `combineIdentifier` and description, so upstream sees the same identity.
@usableFromInline
struct AnyPublisherSubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible
{
  @usableFromInline
  let base: Any

  @usableFromInline
  let receiveSubscription: (any Subscription) -> Void

  @usableFromInline
  let receiveValue: (Input) -> Subscribers.Demand

  @usableFromInline
  let receiveCompletion: (Subscribers.Completion<Failure>) -> Void

  @usableFromInline
  let combineIdentifier: CombineIdentifier

  @inlinable
  init<S: Subscriber>(_ subscriber: S) where S.Input == Input, S.Failure == Failure {
    if let erased = subscriber as? AnyPublisherSubscriber<Input, Failure> {
      self = erased
      return
    }
    base = subscriber
    receiveSubscription = { subscriber.receive(subscription: $0) }
    receiveValue = { subscriber.receive($0) }
    receiveCompletion = { subscriber.receive(completion: $0) }
    combineIdentifier = subscriber.combineIdentifier
  }

  @usableFromInline
  var description: String { (base as? any CustomStringConvertible)?.description ?? "\(type(of: base))" }

  @usableFromInline
  var customMirror: Mirror { (base as? any CustomReflectable)?.customMirror ?? Mirror(reflecting: base) }

  @usableFromInline
  var playgroundDescription: Any {
    (base as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription ?? description
  }

  @inlinable
  func receive(subscription: any Subscription) {
    receiveSubscription(subscription)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    receiveValue(input)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    receiveCompletion(completion)
  }
}
