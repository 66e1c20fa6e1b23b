#if canImport(Combine)
public import Combine
#elseif Rill
public import Rill
#endif

#if canImport(Combine) || Rill
extension Publishers {
  /// Counts down from a number to zero, one number every interval on a scheduler, then finishes.
  ///
  /// - Parameters:
  ///   - start: The first number; it must not be negative.
  ///   - interval: The time before each number.
  ///   - scheduler: The scheduler that measures the interval and delivers the numbers.
  /// - Returns: A publisher of `start`, `start - 1`, ..., `0`.
  public static func countdown<S: Scheduler>(
    from start: Int,
    every interval: S.SchedulerTimeType.Stride,
    scheduler: S
  ) -> AnyPublisher<Int, Never> {
    precondition(start >= 0, "countdown(from:every:scheduler:): start must not be negative, got \(start)")
    return (0...start).reversed().publisher
      .flatMap(maxPublishers: .max(1)) { Just($0).delay(for: interval, scheduler: scheduler) }
      .eraseToAnyPublisher()
  }
}
#endif
