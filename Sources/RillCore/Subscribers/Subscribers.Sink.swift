public import Synchronization

extension Subscribers {
  /// A simple subscriber that requests an unlimited number of values upon subscription.
  ///
  /// A sink releases its closures, and with them anything they capture, once it completes or is cancelled, or,
  /// if a closure is running at that moment, as soon as it returns. A second subscription is cancelled; values
  /// and completions after the sink has ended are ignored. As in Combine, values and a completion that arrive
  /// before a subscription are delivered, and a cancel before a subscription does nothing.
  // SAFETY: the shared mutable state is in `state`, and `hasEnded` is atomic; `runClosures` and `runDepth` are
  // touched only by the thread delivering a run (see `RunReceiver`). Closures and the upstream are called outside
  // the lock.
  public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible, @unchecked Sendable
  {
    /// The closures, in an immutable box that a value borrows instead of retaining.
    ///
    /// Copying a closure out of mutable storage to call it costs a retain and a release, two atomic operations
    /// per value. The sink instead counts the calls in progress under its lock and calls the closure through
    /// the box, which it releases only when no call is in progress.
    @usableFromInline
    final class Closures {
      @usableFromInline let value: (Input) -> Void
      @usableFromInline let completion: ((Subscribers.Completion<Failure>) -> Void)?

      @inlinable
      init(value: @escaping (Input) -> Void, completion: ((Subscribers.Completion<Failure>) -> Void)?) {
        self.value = value
        self.completion = completion
      }
    }

    /// The closures as ``SinkState`` keeps them.
    @inlinable
    static func closures(_ raw: UnsafeMutableRawPointer?) -> Unmanaged<Closures>? {
      raw.map { Unmanaged<Closures>.fromOpaque($0) }
    }

    @usableFromInline let state: Locked<SinkState>

    /// Set once the sink has ended; read without the lock by the values of a run (``RunReceiver``).
    @usableFromInline let hasEnded = Atomic<Bool>(false)

    /// The closures pinned for the run in progress; touched only by the thread delivering the run.
    @usableFromInline @exclusivity(unchecked) var runClosures: Unmanaged<Closures>?

    /// How many runs are in progress on the delivering thread.
    @usableFromInline @exclusivity(unchecked) var runDepth = 0

    /// Runs `cancelNow` in code specialised for the sink's types, made in `init` in client code: `cancel` usually
    /// arrives through `AnyCancellable`, which lands in the unspecialised generic implementation.
    @usableFromInline let cancelThunk: (Sink) -> Void

    /// The closure to execute on receipt of a value; a no-op once the sink has ended.
    public var receiveValue: (Input) -> Void {
      state.withLock { Self.closures($0.closures)?.takeUnretainedValue().value } ?? { _ in }
    }

    /// The closure to execute on completion; a no-op once the sink has ended.
    public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
      state.withLock { Self.closures($0.closures)?.takeUnretainedValue().completion } ?? { _ in }
    }

    /// Initializes a sink with the provided closures.
    @inlinable
    public init(
      receiveCompletion: @escaping ((Subscribers.Completion<Failure>) -> Void),
      receiveValue: @escaping ((Input) -> Void)
    ) {
      state = Locked(
        SinkState(Unmanaged.passRetained(Closures(value: receiveValue, completion: receiveCompletion)).toOpaque())
      )
      cancelThunk = { $0.cancelNow() }
    }

    /// Initializes a sink that ignores completion, without allocating a no-op completion closure.
    @inlinable
    init(ignoringCompletion receiveValue: @escaping ((Input) -> Void)) {
      state = Locked(SinkState(Unmanaged.passRetained(Closures(value: receiveValue, completion: nil)).toOpaque()))
      cancelThunk = { $0.cancelNow() }
    }

    @inlinable
    deinit {
      // Released as `AnyObject`: naming the generic box here would look up its metadata at run time.
      if let raw = state.withLock({ $0.closures }) { Unmanaged<AnyObject>.fromOpaque(raw).release() }
    }

    public var description: String { "Sink" }

    public var customMirror: Mirror { Mirror(self, children: [:]) }

    public var playgroundDescription: Any { description }

    @inlinable
    public func receive(subscription: any Subscription) {
      let accepted = state.withLock { state in
        guard state.link.subscribe(subscription) else { return false }
        state.isReceiving = true
        return true
      }
      if accepted {
        subscription.request(.unlimited)
      } else {
        subscription.cancel()
      }
    }

    @inlinable
    public func receive(_ value: Input) -> Subscribers.Demand {
      // Inside a run only the run's own thread calls in, by the rule that a subscriber's calls never overlap; a
      // publisher that broke that rule while a sequence ran into this sink could see the closures released
      // under it if the sink were cancelled at that moment.
      if let run = runClosures {
        if !hasEnded.load(ordering: .acquiring) {
          run._withUnsafeGuaranteedRef { $0.value(value) }
        }
        return Subscribers.Demand(rawValue: 0)
      }
      let closures = Self.closures(state.withLock { $0.beginCall() })
      if let closures {
        closures._withUnsafeGuaranteedRef { $0.value(value) }
        Self.closures(state.withLock { $0.endCall() })?.release()
      }
      return Subscribers.Demand(rawValue: 0)
    }

    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) {
      var released: Unmanaged<Closures>?
      let closures = state.withLock { state -> Unmanaged<Closures>? in
        // A cancel that has set `hasEnded` but not yet taken the lock may already have silenced values of a run;
        // its completion is silenced too, and the cancel ends the sink when it takes the lock.
        guard !hasEnded.load(ordering: .acquiring), !state.link.isTerminal else { return nil }
        _ = state.link.terminate()
        let closures = Self.closures(state.closures)
        released = Self.closures(state.end())
        return closures
      }
      hasEnded.store(true, ordering: .releasing)
      closures?._withUnsafeGuaranteedRef { $0.completion?(completion) }
      released?.release()
    }

    @inlinable
    public func cancel() {
      cancelThunk(self)
    }

    @inlinable
    func cancelNow() {
      let (upstream, released) = state.withLock { state -> ((any Subscription)?, UnsafeMutableRawPointer?) in
        // As in Combine, only a subscribed sink acts on a cancel.
        guard state.link.isSubscribed else { return (nil, nil) }
        hasEnded.store(true, ordering: .releasing)
        return (state.link.terminate(), state.end())
      }
      upstream?.cancel()
      Self.closures(released)?.release()
    }
  }
}

extension Publisher {
  /// Attaches a subscriber with closure-based behavior.
  ///
  /// The subscriber requests an unlimited number of values. Keep the returned ``AnyCancellable``: when it is
  /// deinitialized, the subscription is cancelled.
  ///
  /// - Parameters:
  ///   - receiveCompletion: The closure to execute on completion.
  ///   - receiveValue: The closure to execute on receipt of a value.
  /// - Returns: A cancellable instance, which you use when you end assignment of the received value.
  @inlinable
  public func sink(
    receiveCompletion: @escaping ((Subscribers.Completion<Failure>) -> Void),
    receiveValue: @escaping ((Output) -> Void)
  ) -> AnyCancellable {
    let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
    subscribe(sink)
    return AnyCancellable(sink)
  }
}

extension Publisher where Failure == Never {
  /// Attaches a subscriber with closure-based behavior to a publisher that never fails.
  ///
  /// - Parameter receiveValue: The closure to execute on receipt of a value.
  /// - Returns: A cancellable instance, which you use when you end assignment of the received value.
  @inlinable
  public func sink(receiveValue: @escaping ((Output) -> Void)) -> AnyCancellable {
    let sink = Subscribers.Sink<Output, Failure>(ignoringCompletion: receiveValue)
    subscribe(sink)
    return AnyCancellable(sink)
  }
}

extension Subscribers.Sink: RunReceiver {
  /// Pins the closures for a run, as if one call lasted the whole run.
  @inlinable
  func beginRun() -> Bool {
    if runDepth > 0 {
      runDepth += 1
      return true
    }
    let closures = Self.closures(state.withLock { $0.beginCall() })
    guard let closures else { return false }
    runClosures = closures
    runDepth = 1
    return true
  }

  @inlinable
  func endRun() {
    runDepth -= 1
    guard runDepth == 0 else { return }
    runClosures = nil
    Self.closures(state.withLock { $0.endCall() })?.release()
  }
}

/// A sink's state behind its lock.
///
/// It is not generic, and keeps the closures' box as a raw pointer, so that the sink's deinitialiser, which always
/// runs unspecialised, destroys it without looking up generic metadata at run time.
@usableFromInline
struct SinkState {
  @usableFromInline var link = SubscriptionState.awaitingSubscription
  /// Whether values are delivered: not ended, subscribed or not.
  ///
  /// Always equal to `!link.isTerminal`. It is stored rather than derived from `link` because a stored flag lets
  /// the optimiser inline a sequence's delivery into a sink, which keeps the per-value path of a
  /// sequence → map → filter → sink pipeline short.
  @usableFromInline var isReceiving = true
  /// The closures, retained once; `nil` once released.
  @usableFromInline var closures: UnsafeMutableRawPointer?
  /// Closure calls in progress; the closures outlive them even if the sink ends meanwhile.
  @usableFromInline var calls = 0

  @inlinable
  init(_ closures: UnsafeMutableRawPointer) {
    self.closures = closures
  }

  /// Starts a closure call, or a run of them; returns the closures, kept until ``endCall()``, or `nil` if the sink
  /// does not receive values.
  @inlinable
  mutating func beginCall() -> UnsafeMutableRawPointer? {
    guard isReceiving else { return nil }
    calls += 1
    return closures
  }

  /// Ends delivery; returns the closures for the caller to release outside the lock, unless a call is in
  /// progress, in which case the last call to return releases them.
  @inlinable
  mutating func end() -> UnsafeMutableRawPointer? {
    isReceiving = false
    guard calls == 0 else { return nil }
    defer { closures = nil }
    return closures
  }

  /// Ends a closure call; returns the closures if the sink ended during the call and this was the last one.
  @inlinable
  mutating func endCall() -> UnsafeMutableRawPointer? {
    calls -= 1
    guard calls == 0, !isReceiving else { return nil }
    defer { closures = nil }
    return closures
  }
}
