/// One thing a publisher can do to its subscriber after the subscription: send a value, fail, or finish.
///
/// `materialize()` turns each event of a publisher into a value of this type, so that a failure no longer ends the
/// stream a subscriber sees; `dematerialize()` turns the events back into the real thing.
///
/// ```
/// upstream:       -1-2-^
/// materialize():  -'value(1)'-'value(2)'-['failure(MarbleError)'|]
/// ```
public enum Event<Output, Failure: Swift.Error> {
  /// The publisher sent a value.
  case value(Output)

  /// The publisher failed with an error.
  case failure(Failure)

  /// The publisher finished normally.
  case finished
}

extension Event: Sendable where Output: Sendable {}

extension Event: Equatable where Output: Equatable, Failure: Equatable {}

extension Event: CustomStringConvertible {
  /// `value(1)`, `failure(error)` or `finished`.
  public var description: String {
    switch self {
    case .value(let value): "value(\(value))"
    case .failure(let error): "failure(\(error))"
    case .finished: "finished"
    }
  }
}

/// A type that can present itself as an ``Event``, such as `Event` itself.
///
/// The operators on materialized publishers (`dematerialize()`, `values()`, `failures()`) are available on any
/// publisher whose `Output` conforms, since a protocol can name `Event`'s generic parameters where a same-type
/// constraint on `Output` could not.
public protocol EventConvertible {
  /// The type of the values of the event.
  associatedtype Output

  /// The type of the failure of the event.
  associatedtype Failure: Swift.Error

  /// This value, as an event.
  var event: Event<Output, Failure> { get }
}

extension Event: EventConvertible {
  /// The event itself.
  public var event: Event<Output, Failure> { self }
}
