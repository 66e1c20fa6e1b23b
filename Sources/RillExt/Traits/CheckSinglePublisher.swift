extension Publisher {
  /// Checks at run time that this publisher publishes exactly one value or fails, and turns a violation into a
  /// ``SingleError``.
  ///
  /// ```
  /// upstream:       --1--|     -----|                -1-2-|                   -1-^
  /// checkSingle():  -----[1|]  -----'missingElement'  ---'tooManyElements'  ---'bothElementAndError'
  /// ```
  ///
  /// The value waits until upstream finishes, so that a second value or a failure after it can still be reported.
  ///
  /// - Returns: A single publisher that fails with a ``SingleError``.
  @inlinable
  public func checkSingle() -> CheckSinglePublisher<Self> {
    CheckSinglePublisher(upstream: self)
  }

  /// Checks at run time that this publisher publishes exactly one value or fails, and stops the program with a
  /// fatal error naming the violation if it does not.
  ///
  /// ```
  /// upstream:        --1--|
  /// assertSingle():  -----[1|]
  /// ```
  ///
  /// - Parameters:
  ///   - prefix: Text that starts the fatal error's message.
  ///   - file: The file named in the fatal error's message.
  ///   - line: The line named in the fatal error's message.
  /// - Returns: A single publisher with this publisher's failure type.
  @inlinable
  public func assertSingle(
    _ prefix: String = "",
    file: StaticString = #file,
    line: UInt = #line
  ) -> AssertSinglePublisher<Self> {
    checkSingle().mapError { $0.upstreamFailure(prefix, file: file, line: line) }
  }

  /// Declares, without checking, that this publisher publishes exactly one value or fails.
  ///
  /// Use it only when you know the promise holds, as for `[1].publisher` or `[1, 2].publisher.prefix(1)`. What
  /// happens downstream of a publisher that breaks it is undefined; ``RillCore/Publisher/assertSingle(_:file:line:)``
  /// checks it instead.
  ///
  /// - Returns: An ``AnySinglePublisher`` that forwards this publisher's events.
  @inlinable
  public func uncheckedSingle() -> AnySinglePublisher<Output, Failure> {
    AnySinglePublisher(unchecked: self)
  }
}

extension SinglePublisher {
  /// Checks a publisher that is a single publisher already: use it as it is.
  @available(*, deprecated, message: "Publisher is already a single publisher")
  @inlinable
  public func assertSingle(
    _ prefix: String = "",
    file: StaticString = #file,
    line: UInt = #line
  ) -> AssertSinglePublisher<Self> {
    checkSingle().mapError { $0.upstreamFailure(prefix, file: file, line: line) }
  }

  /// Erases a publisher that is a single publisher already: use ``SinglePublisher/eraseToAnySinglePublisher()``.
  @available(
    *,
    deprecated,
    message: "Publisher is already a single publisher: use publisher.eraseToAnySinglePublisher() instead."
  )
  @inlinable
  public func uncheckedSingle() -> AnySinglePublisher<Output, Failure> {
    AnySinglePublisher(self)
  }
}

/// The publisher ``RillCore/Publisher/assertSingle(_:file:line:)`` returns.
public typealias AssertSinglePublisher<Upstream: Publisher> = Publishers.MapError<
  CheckSinglePublisher<Upstream>, Upstream.Failure
>

/// How a publisher broke the single promise, or the error it failed with.
public enum SingleError<UpstreamFailure: Error>: Error {
  /// Upstream finished without publishing a value.
  case missingElement

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
    case .missingElement: violation = "missing element"
    case .tooManyElements: violation = "too many elements"
    case .bothElementAndError: violation = "error completion after one element was published"
    }
    traitViolation(prefix, "Single violation: \(violation)", file: file, line: line)
  }
}

extension SingleError: Equatable where UpstreamFailure: Equatable {}

/// A single publisher that checks that its upstream publishes exactly one value or fails.
///
/// It fails with ``SingleError/missingElement``, ``SingleError/tooManyElements`` or
/// ``SingleError/bothElementAndError`` when upstream breaks the promise, and with ``SingleError/upstream(_:)``
/// when upstream fails before its value.
public struct CheckSinglePublisher<Upstream: Publisher>: SinglePublisher {
  public typealias Output = Upstream.Output
  public typealias Failure = SingleError<Upstream.Failure>

  @usableFromInline let upstream: Upstream

  @inlinable
  init(upstream: Upstream) {
    self.upstream = upstream
  }

  @inlinable
  public func receive<S>(subscriber: S) where S: Subscriber, S.Input == Output, S.Failure == Failure {
    let rule = TraitCheckInner<Upstream, S>.Rule(
      missingElement: .missingElement,
      tooManyElements: .tooManyElements,
      bothElementAndError: .bothElementAndError,
      upstream: { .upstream($0) }
    )
    subscriber.receive(subscription: TraitCheckInner(upstream: upstream, downstream: subscriber, rule: rule))
  }
}

/// Stops the program with a message that names the trait violation and where it was checked.
@usableFromInline
func traitViolation(_ prefix: String, _ message: String, file: StaticString, line: UInt) -> Never {
  let text = [prefix, "\(message) at \(file):\(line)"].filter { !$0.isEmpty }.joined(separator: " ")
  fatalError(text, file: file, line: line)
}
