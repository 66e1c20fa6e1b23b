extension Publisher {
  /// Raises a fatal error when its upstream publisher fails, and otherwise republishes all received input.
  ///
  /// ```
  /// upstream:          -1-2-|
  /// assertNoFailure(): -1-2-|
  /// ```
  ///
  /// A failure stops the program with the message `"<prefix>: <error>"`, or `"<error>"` when the prefix is
  /// empty, reported at `file` and `line`.
  ///
  /// - Parameters:
  ///   - prefix: A string used at the beginning of the fatal error message.
  ///   - file: A filename used in the error message. This defaults to `#file`.
  ///   - line: A line number used in the error message. This defaults to `#line`.
  /// - Returns: A publisher that raises a fatal error when its upstream publisher fails.
  @inlinable
  public func assertNoFailure(
    _ prefix: String = "",
    file: StaticString = #file,
    line: UInt = #line
  ) -> Publishers.AssertNoFailure<Self> {
    Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
  }
}

extension Publishers {
  /// A publisher that raises a fatal error upon receiving any failure, and otherwise republishes all received
  /// input.
  public struct AssertNoFailure<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Never

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The string used at the beginning of the fatal error message.
    public let prefix: String

    /// The filename used in the error message.
    public let file: StaticString

    /// The line number used in the error message.
    public let line: UInt

    /// Creates a publisher that raises a fatal error upon receiving any failure, and otherwise republishes all
    /// received input.
    public init(upstream: Upstream, prefix: String, file: StaticString, line: UInt) {
      self.upstream = upstream
      self.prefix = prefix
      self.file = file
      self.line = line
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, S.Failure == Never {
      upstream.subscribe(Inner(downstream: subscriber, prefix: prefix, file: file, line: line))
    }
  }
}

extension Publishers.AssertNoFailure {
  /// The fatal error message for `error`: `"<prefix>: <error>"`, or `"<error>"` without a prefix.
  @inlinable
  static func message(prefix: String, error: Upstream.Failure) -> String {
    prefix.isEmpty ? "\(error)" : "\(prefix): \(error)"
  }

  @usableFromInline
  struct Inner<Downstream: Subscriber>: Subscriber, CombineDescribable
  where Downstream.Input == Output, Downstream.Failure == Never {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline let downstream: Downstream
    @usableFromInline let prefix: String
    @usableFromInline let file: StaticString
    @usableFromInline let line: UInt
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(downstream: Downstream, prefix: String, file: StaticString, line: UInt) {
      self.downstream = downstream
      self.prefix = prefix
      self.file = file
      self.line = line
    }

    @usableFromInline var description: String { "AssertNoFailure" }

    @usableFromInline var customMirror: Mirror {
      Mirror(self, children: ["file": file, "line": line, "prefix": prefix])
    }

    @inlinable
    func receive(subscription: any Subscription) {
      downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
      switch completion {
      case .finished:
        downstream.receive(completion: .finished)
      case .failure(let error):
        fatalError(Publishers.AssertNoFailure<Upstream>.message(prefix: prefix, error: error), file: file, line: line)
      }
    }
  }
}
