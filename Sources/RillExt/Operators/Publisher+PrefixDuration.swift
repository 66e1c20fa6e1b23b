extension Publisher {
  /// Republishes values for a given time after the subscription, then finishes.
  ///
  /// ```
  /// upstream:                                   -1-2-3-4-|
  /// prefix(duration: 4, on: scheduler):         -1-2|
  /// ```
  ///
  /// The window starts when the subscription is made: a one-shot timer on `scheduler` fires `duration` later, and
  /// then the stream finishes and this publisher's subscription is cancelled, as `prefix(untilOutputFrom:)` does. A
  /// completion of this publisher before then ends the stream at once.
  ///
  /// - Parameters:
  ///   - duration: How long after the subscription values are republished.
  ///   - tolerance: The tolerance the timer allows, or `nil` for the scheduler's minimum.
  ///   - scheduler: The scheduler the timer runs on.
  ///   - options: The options for scheduling the timer.
  /// - Returns: A publisher that republishes values until the time is up.
  public func prefix<S: Scheduler>(
    duration: S.SchedulerTimeType.Stride,
    tolerance: S.SchedulerTimeType.Stride? = nil,
    on scheduler: S,
    options: S.SchedulerOptions? = nil
  ) -> AnyPublisher<Output, Failure> {
    let timeIsUp = Just(()).delay(for: duration, tolerance: tolerance, scheduler: scheduler, options: options)
    return prefix(untilOutputFrom: timeIsUp).eraseToAnyPublisher()
  }
}
