/// A publisher that performs type erasure by wrapping another publisher.
///
/// Erasure costs one allocation when the `AnyPublisher` is made and one virtual call per subscription; the
/// wrapped publisher receives the subscriber itself, so values flow at full speed.
public struct AnyPublisher<Output, Failure: Error>: CustomStringConvertible, CustomPlaygroundDisplayConvertible {
  let box: PublisherBoxBase<Output, Failure>

  /// Creates a type-erasing publisher to wrap the provided publisher.
  public init<P: Publisher>(_ publisher: P) where Output == P.Output, Failure == P.Failure {
    if let erased = publisher as? AnyPublisher<Output, Failure> {
      box = erased.box
    } else {
      box = PublisherBox(publisher)
    }
  }

  public var description: String { "AnyPublisher" }

  public var playgroundDescription: Any { description }
}

extension AnyPublisher: Publisher {
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    box.receive(subscriber: subscriber)
  }
}

extension AnyPublisher: Sendable where Output: Sendable {}

extension Publisher {
  /// Wraps this publisher with a type eraser.
  public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
    AnyPublisher(self)
  }
}

// SAFETY: immutable after init.
class PublisherBoxBase<Output, Failure: Error>: @unchecked Sendable {
  init() {}

  func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    fatalError("abstract")
  }
}

// SAFETY: immutable after init.
final class PublisherBox<Base: Publisher>: PublisherBoxBase<Base.Output, Base.Failure>, @unchecked Sendable {
  let base: Base

  init(_ base: Base) {
    self.base = base
  }

  override func receive<S: Subscriber>(subscriber: S) where Base.Output == S.Input, Base.Failure == S.Failure {
    base.receive(subscriber: subscriber)
  }
}
