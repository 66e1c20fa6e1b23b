#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Publisher {
  /// Raises a debugger signal when a provided closure needs to stop the process in the debugger.
  ///
  /// ```
  /// upstream:                                  -1-2-|
  /// breakpoint(receiveOutput: { _ in false }): -1-2-|
  /// ```
  ///
  /// When any of the provided closures returns `true`, this publisher raises the `SIGTRAP` signal to stop the
  /// process in the debugger. Otherwise, this publisher passes through values and completions as-is.
  ///
  /// - Parameters:
  ///   - receiveSubscription: A closure that executes when the publisher receives a subscription. Return
  ///     `true` from this closure to raise `SIGTRAP`, or `false` to continue.
  ///   - receiveOutput: A closure that executes when the publisher receives a value. Return `true` from this
  ///     closure to raise `SIGTRAP`, or `false` to continue.
  ///   - receiveCompletion: A closure that executes when the publisher receives a completion. Return `true`
  ///     from this closure to raise `SIGTRAP`, or `false` to continue.
  /// - Returns: A publisher that raises a debugger signal when one of the provided closures returns `true`.
  @inlinable
  public func breakpoint(
    receiveSubscription: ((any Subscription) -> Bool)? = nil,
    receiveOutput: ((Output) -> Bool)? = nil,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
  ) -> Publishers.Breakpoint<Self> {
    Publishers.Breakpoint(
      upstream: self,
      receiveSubscription: receiveSubscription,
      receiveOutput: receiveOutput,
      receiveCompletion: receiveCompletion
    )
  }

  /// Raises a debugger signal upon receiving a failure.
  ///
  /// ```
  /// upstream:            -1-2-|
  /// breakpointOnError(): -1-2-|
  /// ```
  ///
  /// When the upstream publisher fails with an error, this publisher raises the `SIGTRAP` signal, which stops
  /// the process in the debugger. Otherwise, this publisher passes through values and completions as-is.
  ///
  /// - Returns: A publisher that raises a debugger signal upon receiving a failure.
  @inlinable
  public func breakpointOnError() -> Publishers.Breakpoint<Self> {
    breakpoint(receiveCompletion: { completion in
      if case .failure = completion { return true }
      return false
    })
  }
}

extension Publishers {
  /// A publisher that raises a debugger signal when a provided closure needs to stop the process in the
  /// debugger.
  public struct Breakpoint<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// A closure that executes when the publisher receives a subscription, and can raise a debugger signal by
    /// returning a true Boolean value.
    public let receiveSubscription: ((any Subscription) -> Bool)?

    /// A closure that executes when the publisher receives output from the upstream publisher, and can raise a
    /// debugger signal by returning a true Boolean value.
    public let receiveOutput: ((Upstream.Output) -> Bool)?

    /// A closure that executes when the publisher receives completion, and can raise a debugger signal by
    /// returning a true Boolean value.
    public let receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)?

    /// Creates a breakpoint publisher with the provided upstream publisher and breakpoint-raising closures.
    public init(
      upstream: Upstream,
      receiveSubscription: ((any Subscription) -> Bool)? = nil,
      receiveOutput: ((Upstream.Output) -> Bool)? = nil,
      receiveCompletion: ((Subscribers.Completion<Failure>) -> Bool)? = nil
    ) {
      self.upstream = upstream
      self.receiveSubscription = receiveSubscription
      self.receiveOutput = receiveOutput
      self.receiveCompletion = receiveCompletion
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Output == S.Input {
      let inner = Inner(
        downstream: subscriber,
        receiveSubscription: receiveSubscription,
        receiveOutput: receiveOutput,
        receiveCompletion: receiveCompletion
      )
      upstream.subscribe(inner)
    }
  }
}

extension Publishers.Breakpoint {
  /// Stops the process in the debugger, or ends it when no debugger is attached.
  @usableFromInline
  static func stopInDebugger() {
    #if canImport(Glibc) || canImport(Musl)
    // Swift's backtracer handles SIGTRAP on Linux and returns from the handler, which would let the process run on;
    // SIGTRAP's default action ends it, as on Darwin. A debugger still stops on the signal.
    _ = signal(SIGTRAP, SIG_DFL)
    #endif
    #if canImport(Darwin) || canImport(Glibc) || canImport(Musl)
    _ = raise(SIGTRAP)
    #else
    fatalError("breakpoint")
    #endif
  }

  @usableFromInline
  struct Inner<Downstream: Subscriber>: Subscriber, CombineDescribable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    // Only the closures, never the publisher: a subscription must not keep its upstream alive.
    @usableFromInline let downstream: Downstream
    @usableFromInline let receiveSubscription: ((any Subscription) -> Bool)?
    @usableFromInline let receiveOutput: ((Upstream.Output) -> Bool)?
    @usableFromInline let receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)?
    @usableFromInline let combineIdentifier = CombineIdentifier()

    @inlinable
    init(
      downstream: Downstream,
      receiveSubscription: ((any Subscription) -> Bool)?,
      receiveOutput: ((Upstream.Output) -> Bool)?,
      receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Bool)?
    ) {
      self.downstream = downstream
      self.receiveSubscription = receiveSubscription
      self.receiveOutput = receiveOutput
      self.receiveCompletion = receiveCompletion
    }

    @usableFromInline var description: String { "Breakpoint" }

    @inlinable
    func receive(subscription: any Subscription) {
      if receiveSubscription?(subscription) == true { Publishers.Breakpoint<Upstream>.stopInDebugger() }
      downstream.receive(subscription: subscription)
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      if receiveOutput?(input) == true { Publishers.Breakpoint<Upstream>.stopInDebugger() }
      return downstream.receive(input)
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
      if receiveCompletion?(completion) == true { Publishers.Breakpoint<Upstream>.stopInDebugger() }
      downstream.receive(completion: completion)
    }
  }
}
