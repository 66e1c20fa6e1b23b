#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

extension Timeline {
  /// What stamps a timeline's events with their time, in nanoseconds.
  ///
  /// ``wall`` reads the system's clock: an event's ``Timeline/Event/time`` is then the number of nanoseconds since
  /// 1 January 1970, UTC, and times never go backwards while the timeline records, even if the system's clock is
  /// set back meanwhile. A clock made with ``init(nanoseconds:)`` reads whatever you choose, such as a virtual-time
  /// scheduler's time in a test, so that the same scenario records the same times on every run:
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test
  /// let timeline = Timeline(clock: Timeline.Clock { Int64(scheduler.now.dispatchTime.uptimeNanoseconds) })
  /// ```
  public struct Clock: Sendable {
    private enum Source {
      /// The monotonic clock plus the offset that turns it into wall time, measured when the clock was made.
      case wall(offset: Int64)
      case custom(@Sendable () -> Int64)
    }

    private let source: Source

    /// Creates a clock that reads the time with `nanoseconds`.
    ///
    /// The closure is called once per event, on the thread that records it and before the timeline takes its lock,
    /// so it may take a lock of its own. It should not go backwards; if it does, the event keeps the latest time
    /// recorded before it.
    ///
    /// - Parameter nanoseconds: Returns the current time in nanoseconds, from any origin.
    public init(nanoseconds: @escaping @Sendable () -> Int64) {
      source = .custom(nanoseconds)
    }

    private init(wallOffset: Int64) {
      source = .wall(offset: wallOffset)
    }

    /// The system's clock: nanoseconds since 1 January 1970, UTC, advancing steadily from the moment the clock
    /// is made.
    public static var wall: Clock {
      Clock(wallOffset: Self.read(CLOCK_REALTIME) - Self.read(CLOCK_MONOTONIC))
    }

    /// The current time, in nanoseconds.
    public func now() -> Int64 {
      switch source {
      case .wall(let offset): Self.read(CLOCK_MONOTONIC) + offset
      case .custom(let read): read()
      }
    }

    private static func read(_ clock: clockid_t) -> Int64 {
      var time = timespec()
      clock_gettime(clock, &time)
      return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
  }

  /// The identity of a thread, cheap to read on every event.
  struct ThreadIdentity: Hashable {
    private let value: UInt64

    static var current: ThreadIdentity {
      #if canImport(Darwin)
      ThreadIdentity(value: UInt64(pthread_mach_thread_np(pthread_self())))
      #else
      ThreadIdentity(value: UInt64(pthread_self()))
      #endif
    }
  }
}
