extension Publisher {
  /// Maps a value to a publisher and republishes its values, ignoring this publisher's values until it completes.
  ///
  /// ```
  /// upstream:                          -a--b---c-----|
  /// inner for each value v:            -1--2|
  /// flatMapFirst { inner(v) as "v1" }: --'a1'--'a2'---'c1'--'c2'-|
  /// ```
  ///
  /// One inner publisher runs at a time. While it runs (from the value that made it to its completion or cancellation),
  /// the values of this publisher are dropped, and `transform` is not called for them; the next value after it ends
  /// starts a new one. Unlike ``RillCore/Publisher/flatMapLatest(_:)``, nothing running is cancelled. The stream
  /// finishes once this publisher and the running inner publisher have finished, and fails as soon as either fails.
  ///
  /// The returned publisher is made of Combine's `filter`, `flatMap` and `handleEvents`, as CombineExt's is, with
  /// one flag (behind a lock) saying whether an inner publisher runs. That flag belongs to the returned publisher,
  /// not to a subscription: give it one subscriber at a time (subscribe to the operator again for another).
  ///
  /// - Parameter transform: A closure that returns a publisher for a value of this publisher.
  /// - Returns: A publisher of the values of one inner publisher at a time.
  @inlinable
  public func flatMapFirst<P: Publisher>(
    _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<Publishers.HandleEvents<P>, Publishers.Filter<Self>> where Self.Failure == P.Failure {
    let isRunning = Locked(false)
    return filter { _ in !isRunning.withLock { $0 } }
      .flatMap { value in
        // Running from now, not from the subscription: an inner publisher subscribed later (through
        // `subscribe(on:)`, say) still keeps the values that come meanwhile out.
        isRunning.withLock { $0 = true }
        return transform(value)
          .handleEvents(
            receiveCompletion: { _ in isRunning.withLock { $0 = false } },
            receiveCancel: { isRunning.withLock { $0 = false } }
          )
      }
  }
}
