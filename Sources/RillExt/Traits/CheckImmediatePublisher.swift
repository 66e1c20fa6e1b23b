extension Publisher {
  /// Checks at run time that this publisher publishes a value or fails while it is being subscribed, and turns a
  /// violation into a ``ImmediateError``.
  ///
  /// ```
  /// upstream:           1-2-|  --1-|
  /// checkImmediate():   1-2-|  'notImmediate'
  /// ```
  ///
  /// It subscribes upstream on downstream's first request, and fails with ``ImmediateError/notImmediate`` if
  /// upstream has neither published nor failed once `subscribe` returns.
  ///
  /// - Returns: An immediate publisher that fails with an ``ImmediateError``.
  @inlinable
  public func checkImmediate() -> CheckImmediatePublisher<Self> {
    CheckImmediatePublisher(upstream: self)
  }

  /// Checks at run time that this publisher publishes a value or fails while it is being subscribed, and stops
  /// the program with a fatal error naming the violation if it does not.
  ///
  /// ```
  /// upstream:           1-2-|
  /// assertImmediate():  1-2-|
  /// ```
  ///
  /// - Parameters:
  ///   - prefix: Text that starts the fatal error's message.
  ///   - file: The file named in the fatal error's message.
  ///   - line: The line named in the fatal error's message.
  /// - Returns: An immediate publisher with this publisher's failure type.
  @inlinable
  public func assertImmediate(
    _ prefix: String = "",
    file: StaticString = #file,
    line: UInt = #line
  ) -> AssertImmediatePublisher<Self> {
    checkImmediate().mapError { $0.upstreamFailure(prefix, file: file, line: line) }
  }

  /// Declares, without checking, that this publisher publishes a value or fails while it is being subscribed.
  ///
  /// What happens downstream of a publisher that breaks the promise is undefined;
  /// ``RillCore/Publisher/assertImmediate(_:file:line:)`` checks it instead.
  ///
  /// - Returns: An ``AnyImmediatePublisher`` that forwards this publisher's events.
  @inlinable
  public func uncheckedImmediate() -> AnyImmediatePublisher<Output, Failure> {
    AnyImmediatePublisher(unchecked: self)
  }
}

extension ImmediatePublisher {
  /// Checks a publisher that is an immediate publisher already: use it as it is.
  @available(*, deprecated, message: "Publisher is already an immediate publisher")
  @inlinable
  public func assertImmediate(
    _ prefix: String = "",
    file: StaticString = #file,
    line: UInt = #line
  ) -> AssertImmediatePublisher<Self> {
    checkImmediate().mapError { $0.upstreamFailure(prefix, file: file, line: line) }
  }

  /// Erases a publisher that is an immediate publisher already: use
  /// ``ImmediatePublisher/eraseToAnyImmediatePublisher()``.
  @available(
    *,
    deprecated,
    message: "Publisher is already an immediate publisher: use publisher.eraseToAnyImmediatePublisher() instead."
  )
  @inlinable
  public func uncheckedImmediate() -> AnyImmediatePublisher<Output, Failure> {
    AnyImmediatePublisher(self)
  }
}

/// The publisher ``RillCore/Publisher/assertImmediate(_:file:line:)`` returns.
public typealias AssertImmediatePublisher<Upstream: Publisher> = Publishers.MapError<
  CheckImmediatePublisher<Upstream>, Upstream.Failure
>

/// How a publisher broke the immediate promise, or the error it failed with.
public enum ImmediateError<UpstreamFailure: Error>: Error {
  /// Upstream neither published a value nor failed while it was being subscribed.
  case notImmediate

  /// Upstream failed.
  case upstream(UpstreamFailure)

  /// The upstream error, or a fatal error that names the violation.
  @inlinable
  func upstreamFailure(_ prefix: String, file: StaticString, line: UInt) -> UpstreamFailure {
    switch self {
    case .upstream(let error):
      return error
    case .notImmediate:
      traitViolation(
        prefix,
        "Immediate violation: did not publish an element or fail right on subscription,",
        file: file,
        line: line
      )
    }
  }
}

extension ImmediateError: Equatable where UpstreamFailure: Equatable {}

/// An immediate publisher that checks that its upstream publishes a value or fails while it is being subscribed.
///
/// It fails with ``ImmediateError/notImmediate`` when upstream breaks the promise, and passes on upstream's values
/// and completion otherwise, its failure as ``ImmediateError/upstream(_:)``.
public struct CheckImmediatePublisher<Upstream: Publisher>: ImmediatePublisher {
  public typealias Output = Upstream.Output
  public typealias Failure = ImmediateError<Upstream.Failure>

  @usableFromInline let upstream: Upstream

  @inlinable
  init(upstream: Upstream) {
    self.upstream = upstream
  }

  @inlinable
  public func receive<S>(subscriber: S) where S: Subscriber, S.Input == Output, S.Failure == Failure {
    subscriber.receive(subscription: Inner(upstream: upstream, downstream: subscriber))
  }
}

extension CheckImmediatePublisher {
  // SAFETY: all mutable state is in `state`; downstream and upstream are called outside the lock.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, Subscription, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline
    enum State {
      case awaitingRequest(Upstream)
      case subscribing(Subscribers.Demand, (any Subscription)?)
      case subscribed(any Subscription)
      case terminal
    }

    @usableFromInline let downstream: Downstream
    @usableFromInline let state: Locked<State>

    @inlinable
    init(upstream: Upstream, downstream: Downstream) {
      self.downstream = downstream
      state = Locked(.awaitingRequest(upstream))
    }

    @usableFromInline
    enum RequestAction {
      case subscribe(Upstream)
      case request(any Subscription)
      case none
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
      let action: RequestAction = state.withLock { state in
        switch state {
        case .awaitingRequest(let upstream):
          state = .subscribing(demand, nil)
          return .subscribe(upstream)
        case .subscribing(let pending, nil):
          state = .subscribing(pending + demand, nil)
          return .none
        case .subscribing(_, .some(let subscription)), .subscribed(let subscription):
          return .request(subscription)
        case .terminal:
          return .none
        }
      }
      switch action {
      case .none:
        break
      case .request(let subscription):
        subscription.request(demand)
      case .subscribe(let upstream):
        upstream.subscribe(self)
        // Upstream had its chance: still subscribing means it neither published nor failed.
        let late: (any Subscription)?? = state.withLock { state in
          guard case .subscribing(_, let subscription) = state else { return .none }
          state = .terminal
          return .some(subscription)
        }
        if case .some(let subscription) = late {
          subscription?.cancel()
          downstream.receive(completion: .failure(.notImmediate))
        }
      }
    }

    @inlinable
    func cancel() {
      let (subscription, upstream) = state.withLock { state -> ((any Subscription)?, Upstream?) in
        defer { state = .terminal }
        switch state {
        case .subscribing(_, let subscription): return (subscription, nil)
        case .subscribed(let subscription): return (subscription, nil)
        // Released after the lock: a publisher that ends its subscribers as it goes (a relay) may call back.
        case .awaitingRequest(let upstream): return (nil, upstream)
        case .terminal: return (nil, nil)
        }
      }
      subscription?.cancel()
      withExtendedLifetime(upstream) {}
    }

    @inlinable
    func receive(subscription: any Subscription) {
      let demand: Subscribers.Demand? = state.withLock { state in
        guard case .subscribing(let demand, nil) = state else { return nil }
        state = .subscribing(.none, subscription)
        return demand
      }
      guard let demand else { return subscription.cancel() }
      if demand > .none { subscription.request(demand) }
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      let live: Bool = state.withLock { state in
        switch state {
        case .subscribing(_, .some(let subscription)):
          state = .subscribed(subscription)
          return true
        case .subscribed:
          return true
        case .awaitingRequest, .subscribing, .terminal:
          return false
        }
      }
      guard live else { return .none }
      return downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
      let completionToSend: Subscribers.Completion<ImmediateError<Upstream.Failure>>? = state.withLock { state in
        defer { state = .terminal }
        switch (state, completion) {
        case (.awaitingRequest, _), (.terminal, _): return nil
        case (_, .failure(let error)): return .failure(.upstream(error))
        case (.subscribing, .finished): return .failure(.notImmediate)
        case (.subscribed, .finished): return .finished
        }
      }
      if let completionToSend { downstream.receive(completion: completionToSend) }
    }
  }
}
