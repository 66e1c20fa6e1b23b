extension Publisher {
  /// Prints log messages for all publishing events.
  ///
  /// ```
  /// upstream:    -1-2-|
  /// print("p"):  -1-2-|
  /// ```
  ///
  /// For `Just(1).print("p")` subscribed by a sink, the lines are:
  ///
  /// ```
  /// p: receive subscription: (Just)
  /// p: request unlimited
  /// p: receive value: (1)
  /// p: receive finished
  /// ```
  ///
  /// Demand that downstream returns from receiving a value, when not `.none`, is logged as
  /// `request max: (n) (synchronous)` or `request unlimited (synchronous)`; failures as `receive error: (error)`
  /// and cancellation as `receive cancel`.
  ///
  /// - Parameters:
  ///   - prefix: A string, followed by `": "`, with which to prefix all log messages; nothing when empty.
  ///   - stream: A stream for text output that receives messages, and which directs output to the console by
  ///     default.
  /// - Returns: A publisher that prints log messages for all publishing events.
  @inlinable
  public func print(_ prefix: String = "", to stream: (any TextOutputStream)? = nil) -> Publishers.Print<Self> {
    Publishers.Print(upstream: self, prefix: prefix, to: stream)
  }
}

extension Publishers {
  /// A publisher that prints log messages for all publishing events, optionally prefixed with a given string.
  public struct Print<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// A string with which to prefix all log messages.
    public let prefix: String

    /// The publisher from which this publisher receives elements.
    public let upstream: Upstream

    /// The stream to which the publisher writes messages; standard output when `nil`.
    public let stream: (any TextOutputStream)?

    /// Creates a publisher that prints log messages for all publishing events.
    ///
    /// - Parameters:
    ///   - upstream: The publisher from which this publisher receives elements.
    ///   - prefix: A string with which to prefix all log messages.
    ///   - stream: A stream for text output that receives messages; standard output when `nil`.
    public init(upstream: Upstream, prefix: String, to stream: (any TextOutputStream)? = nil) {
      self.upstream = upstream
      self.prefix = prefix
      self.stream = stream
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where Failure == S.Failure, Output == S.Input {
      upstream.subscribe(Inner(downstream: subscriber, prefix: prefix, stream: stream))
    }
  }
}

extension Publishers.Print {
  /// As in Combine, elements and completions that arrive before the upstream subscription are logged and passed on,
  /// and a cancel before it is logged and nothing else: the subscription is still taken when it comes. What upstream
  /// sends after the subscription completed or was cancelled (values, further completions) is logged and, as in
  /// Combine, passed on to the subscriber while something else keeps it alive (see `DownstreamHold`).
  // SAFETY: all mutable state is in `state`, except `stream`, which is only touched under `printing`; the stream,
  // downstream and upstream are called outside the state lock.
  @usableFromInline
  final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CombineDescribable, @unchecked Sendable
  where Downstream.Input == Output, Downstream.Failure == Failure {
    @usableFromInline typealias Input = Upstream.Output
    @usableFromInline typealias Failure = Upstream.Failure

    @usableFromInline
    struct State {
      @usableFromInline var link = SubscriptionState.awaitingSubscription
      @usableFromInline var downstream: DownstreamHold<Downstream>

      @inlinable
      init(link: SubscriptionState = SubscriptionState.awaitingSubscription, downstream: DownstreamHold<Downstream>) {
        self.link = link
        self.downstream = downstream
      }

      /// Ends the link; returns the upstream to cancel and the subscriber that was held, to drop outside the lock.
      @inlinable
      mutating func terminate() -> ((any Subscription)?, Downstream?) {
        (link.terminate(), downstream.release())
      }
    }

    @usableFromInline let prefix: String
    /// This subscription's copy of the user's stream, as in Combine: written in place, one whole line at a time,
    /// under `printing`.
    @usableFromInline var stream: (any TextOutputStream)?
    /// Held around each line written to `stream`, as Combine holds a lock there: lines logged from two threads do
    /// not interleave.
    @usableFromInline let printing = DeliveryLock()
    @usableFromInline let state: Locked<State>

    @inlinable
    init(downstream: Downstream, prefix: String, stream: (any TextOutputStream)?) {
      state = Locked(State(downstream: DownstreamHold(downstream)))
      self.prefix = prefix.isEmpty ? "" : "\(prefix): "
      self.stream = stream
    }

    @usableFromInline var description: String { "Print" }

    /// Writes to the user's stream through a concrete type, as `print(_:to:)` needs one.
    @usableFromInline
    struct Target: TextOutputStream {
      @usableFromInline var stream: any TextOutputStream

      @inlinable
      init(stream: any TextOutputStream) {
        self.stream = stream
      }

      @inlinable
      mutating func write(_ string: String) {
        stream.write(string)
      }
    }

    @inlinable
    func log(_ message: String) {
      printing.withLock {
        guard let current = stream.take() else {
          Swift.print(prefix + message)
          return
        }
        var target = Target(stream: current)
        Swift.print(prefix + message, to: &target)
        stream = target.stream
      }
    }

    @inlinable
    static func describe(_ demand: Subscribers.Demand) -> String {
      demand.max.map { "request max: (\($0))" } ?? "request unlimited"
    }

    @inlinable
    func receive(subscription: any Subscription) {
      log("receive subscription: (\(subscription))")
      let downstream = state.withLock { state -> Downstream? in
        state.link.subscribe(subscription) ? state.downstream.subscriber : nil
      }
      guard let downstream else {
        subscription.cancel()
        return
      }
      downstream.receive(subscription: self)
    }

    @inlinable
    func receive(_ input: Upstream.Output) -> Subscribers.Demand {
      log("receive value: (\(input))")
      guard let downstream = state.withLock({ $0.downstream.subscriber }) else { return .none }
      let demand = downstream.receive(input)
      if demand != .none {
        log(Self.describe(demand) + " (synchronous)")
      }
      return demand
    }

    @inlinable
    func receive(completion: Subscribers.Completion<Upstream.Failure>) {
      switch completion {
      case .finished: log("receive finished")
      case .failure(let error): log("receive error: (\(error))")
      }
      let (upstream, held, downstream) = state.withLock { state in
        let (upstream, held) = state.terminate()
        return (upstream, held, held ?? state.downstream.subscriber)
      }
      _ = (upstream, held)
      downstream?.receive(completion: completion)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
      log(Self.describe(demand))
      state.withLock { $0.link.upstream }?.request(demand)
    }

    @inlinable
    func cancel() {
      log("receive cancel")
      let (upstream, downstream) = state.withLock { $0.link.isAwaitingSubscription ? (nil, nil) : $0.terminate() }
      upstream?.cancel()
      _ = downstream
    }
  }
}
