// A stand-in for a library written for Combine before `Optional.publisher` existed, which declares its own
// back-port. Rill must not make every use of `.publisher` on an optional ambiguous where both are imported.

/// The back-ported publisher type; only its value matters to the tests.
public struct BackPortedOptionalPublisher<Wrapped> {
  public let value: Wrapped?
}

extension Optional {
  /// The library's own `Optional.publisher`.
  public var publisher: BackPortedOptionalPublisher<Wrapped> { BackPortedOptionalPublisher(value: self) }
}
