public import RillExt

extension Timeline.Clock {
  /// A clock that reads a test scheduler's virtual time, so that a timeline records the same times on every run.
  ///
  /// A tick of the scheduler is one nanosecond of the timeline, so a marble diagram's tick (one tick by default) is
  /// one column of the timeline's `text(width:)` when the recording is short:
  ///
  /// ```swift
  /// let scheduler = TestScheduler()
  /// let timeline = Timeline(clock: .virtual(scheduler))
  /// let result = scheduler.marbles("-a-b-|") { $0.lane("source", timeline: timeline).map { $0.uppercased() } }
  /// ```
  ///
  /// - Parameter scheduler: The scheduler whose `now` stamps each event.
  /// - Returns: The clock.
  public static func virtual(_ scheduler: TestScheduler) -> Timeline.Clock {
    Timeline.Clock { Int64(scheduler.now.ticks) }
  }
}
