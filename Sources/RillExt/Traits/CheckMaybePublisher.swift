extension Publisher {
  /// Checks at run time that this publisher publishes at most one value, and turns a violation into a
  /// ``MaybeError``.
  ///
  /// ```
  /// upstream:      --1--|     -----|  -1-2-|                   -1-^
  /// checkMaybe():  -----[1|]  -----|  ---'tooManyElements'  ---'bothElementAndError'
  /// ```
  ///
  /// The value waits until upstream finishes, so that a second value or a failure after it can still be reported.
  ///
  /// - Returns: A maybe publisher that fails with a ``MaybeError``.
  @inlinable
  public func checkMaybe() -> CheckMaybePublisher<Self> {
    CheckMaybePublisher(upstream: self)
  }

  /// Checks at run time that this publisher publishes at most one value, and stops the program with a fatal error
  /// naming the violation if it does not.
  ///
  /// ```
  /// upstream:        --1--|
  /// assertMaybe():  -----[1|]
  /// ```
  ///
  /// - Parameters:
  ///   - prefix: Text that starts the fatal error's message.
  ///   - file: The file named in the fatal error's message.
  ///   - line: The line named in the fatal error's message.
  /// - Returns: A maybe publisher with this publisher's failure type.
  @inlinable
  public func assertMaybe(
    _ prefix: String = "",
    file: StaticString = #file,
    line: UInt = #line
  ) -> AssertMaybePublisher<Self> {
    checkMaybe().mapError { $0.upstreamFailure(prefix, file: file, line: line) }
  }

  /// Declares, without checking, that this publisher publishes at most one value.
  ///
  /// Use it only when you know the promise holds, as for `[1].publisher` or `[1, 2].publisher.prefix(1)`. What
  /// happens downstream of a publisher that breaks it is undefined; ``RillCore/Publisher/assertMaybe(_:file:line:)``
  /// checks it instead.
  ///
  /// - Returns: An ``AnyMaybePublisher`` that forwards this publisher's events.
  @inlinable
  public func uncheckedMaybe() -> AnyMaybePublisher<Output, Failure> {
    AnyMaybePublisher(unchecked: self)
  }
}

extension MaybePublisher {
  /// Checks a publisher that is a maybe publisher already: use it as it is.
  @available(*, deprecated, message: "Publisher is already a maybe publisher")
  @inlinable
  public func assertMaybe(
    _ prefix: String = "",
    file: StaticString = #file,
    line: UInt = #line
  ) -> AssertMaybePublisher<Self> {
    checkMaybe().mapError { $0.upstreamFailure(prefix, file: file, line: line) }
  }

  /// Erases a publisher that is a maybe publisher already: use ``MaybePublisher/eraseToAnyMaybePublisher()``.
  @available(
    *,
    deprecated,
    message: "Publisher is already a maybe publisher: use publisher.eraseToAnyMaybePublisher() instead."
  )
  @inlinable
  public func uncheckedMaybe() -> AnyMaybePublisher<Output, Failure> {
    AnyMaybePublisher(self)
  }
}

/// The publisher ``RillCore/Publisher/assertMaybe(_:file:line:)`` returns.
public typealias AssertMaybePublisher<Upstream: Publisher> = Publishers.MapError<
  CheckMaybePublisher<Upstream>, Upstream.Failure
>

/// How a publisher broke the maybe promise, or the error it failed with.
public enum MaybeError<UpstreamFailure: Error>: Error {
  /// Upstream published a second value.
  case tooManyElements

  /// Upstream failed after publishing its value.
  case bothElementAndError

  /// Upstream failed before publishing a value.
  case upstream(UpstreamFailure)

  /// The upstream error, or a fatal error that names the violation.
  @inlinable
  func upstreamFailure(_ prefix: String, file: StaticString, line: UInt) -> UpstreamFailure {
    let violation: String
    switch self {
    case .upstream(let error): return error
    case .tooManyElements: violation = "too many elements"
    case .bothElementAndError: violation = "error completion after one element was published"
    }
    traitViolation(prefix, "Maybe violation: \(violation)", file: file, line: line)
  }
}

extension MaybeError: Equatable where UpstreamFailure: Equatable {}

/// A maybe publisher that checks that its upstream publishes at most one value.
///
/// It fails with ``MaybeError/tooManyElements`` or ``MaybeError/bothElementAndError`` when upstream breaks the
/// promise, and with ``MaybeError/upstream(_:)`` when upstream fails before publishing a value.
public struct CheckMaybePublisher<Upstream: Publisher>: MaybePublisher {
  public typealias Output = Upstream.Output
  public typealias Failure = MaybeError<Upstream.Failure>

  @usableFromInline let upstream: Upstream

  @inlinable
  init(upstream: Upstream) {
    self.upstream = upstream
  }

  @inlinable
  public func receive<S>(subscriber: S) where S: Subscriber, S.Input == Output, S.Failure == Failure {
    let rule = TraitCheckInner<Upstream, S>.Rule(
      missingElement: nil,
      tooManyElements: .tooManyElements,
      bothElementAndError: .bothElementAndError,
      upstream: { .upstream($0) }
    )
    subscriber.receive(subscription: TraitCheckInner(upstream: upstream, downstream: subscriber, rule: rule))
  }
}
