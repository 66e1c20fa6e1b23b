import Foundation

/// A recording of what subscriptions did: when they started, what they requested, the values they passed on, and
/// how they ended.
///
/// The ``RillCore/Publisher/lane(_:filter:file:function:line:timeline:transformValue:)`` operator records into a
/// timeline: ``shared`` by default, or one you make. Each recorded ``Event`` carries its time, the thread it
/// happened on, the lane and subscription it belongs to, and a description of the value.
///
/// ```swift
/// let timeline = Timeline()
/// let cancellable = [1, 2, 3].publisher
///   .lane("numbers", timeline: timeline)
///   .map { $0 * 10 }
///   .lane("tens", timeline: timeline)
///   .sink { _ in }
/// print(timeline.text())
/// ```
///
/// Look at what was recorded in one of three ways: ``text(width:)`` draws one row per lane in marble notation,
/// for a terminal or a test failure; ``traceEventJSON()`` writes Chrome's trace-event format, which Perfetto
/// and `chrome://tracing` open; ``svg(width:)`` draws a picture. See <doc:SeeingWhatYourPipelineDid>.
///
/// A timeline is safe to record into from any number of threads: each event is stamped and stored under one lock,
/// so the events of one subscription keep the order in which the operator saw them. It keeps the most recent
/// `capacity` events and forgets older ones (``droppedEventCount`` counts them), so a timeline left recording in a
/// long-running app stays within a known size.
public final class Timeline: @unchecked Sendable {
  // SAFETY: all mutable state is in `storage`; nothing is called out from under its lock (the clock is read before
  // taking it).

  /// The timeline that ``RillCore/Publisher/lane(_:filter:file:function:line:timeline:transformValue:)`` records
  /// into when it is given none; it reads the wall clock and keeps the last 100,000 events.
  public static let shared = Timeline()

  /// What stamps each event with its time.
  public let clock: Clock

  /// How many events the timeline keeps; once it holds that many, each new event replaces the oldest.
  public let capacity: Int

  private let storage: Locked<Storage>

  /// Creates an empty timeline.
  ///
  /// - Parameters:
  ///   - clock: What stamps each event with its time; the wall clock by default. In a test that runs on a
  ///     virtual-time scheduler, pass a clock that reads the scheduler's time, so that the recording is the same on
  ///     every run (RillTesting has `Timeline.Clock.virtual(_:)`).
  ///   - capacity: How many events to keep, at least one; older events are forgotten.
  public init(clock: Clock = .wall, capacity: Int = 100_000) {
    precondition(capacity > 0, "Timeline(capacity:): capacity must be greater than zero")
    self.clock = clock
    self.capacity = capacity
    storage = Locked(Storage())
  }

  /// Every event kept, oldest first.
  public var events: [Event] {
    let (records, threads) = storage.withLock { ($0.orderedRecords, $0.threadNames) }
    return records.map { record in
      Event(
        kind: record.kind,
        lane: record.subscription.lane,
        subscription: record.subscription.number,
        time: record.time,
        thread: threads[Int(record.thread)],
        source: record.subscription.source
      )
    }
  }

  /// The number of events forgotten to stay within ``capacity``.
  public var droppedEventCount: Int { storage.withLock { $0.dropped } }

  /// Forgets every event, so that the next rendering shows only what happens from now on.
  ///
  /// Subscriptions already recording go on recording, under the numbers they have.
  public func removeAll() {
    storage.withLock { storage in
      storage.records = []
      storage.head = 0
      storage.dropped = 0
    }
  }

  // MARK: Recording

  /// Numbers a new subscription of the lane `name`: the lane's first subscription is 1.
  @usableFromInline
  func subscription(lane name: String, source: Source) -> SubscriptionRecord {
    storage.withLock { storage in
      let number = storage.subscriptionCounts[name, default: 0] + 1
      storage.subscriptionCounts[name] = number
      return SubscriptionRecord(lane: name, number: number, source: source)
    }
  }

  /// Records that `kind` happened to `subscription` now, on the calling thread.
  @usableFromInline
  func record(_ kind: Event.Kind, for subscription: SubscriptionRecord) {
    let time = clock.now()
    let thread = ThreadIdentity.current
    storage.withLock { storage in
      storage.append(kind, for: subscription, at: time, on: thread, capacity: capacity)
    }
  }
}

extension Timeline {
  /// Where a lane's operator is written: the file, line and function of the call to `lane`.
  @usableFromInline
  struct Source: Sendable {
    let file: StaticString
    let line: UInt
    let function: StaticString

    @usableFromInline
    init(file: StaticString, line: UInt, function: StaticString) {
      self.file = file
      self.line = line
      self.function = function
    }

    /// `Search.swift:12 - init(catalog:)`, the file without its module.
    var description: String {
      let file = "\(file)".split(separator: "/").last.map(String.init) ?? "\(file)"
      return "\(file):\(line) - \(function)"
    }
  }

  /// A subscription recorded by a lane: its lane, its number in the lane, and where the lane is written.
  ///
  /// Each event refers to its subscription's record, so a record lives exactly as long as one of its events is
  /// kept.
  @usableFromInline
  final class SubscriptionRecord: Sendable {
    let lane: String
    let number: Int
    private let location: Source

    init(lane: String, number: Int, source: Source) {
      self.lane = lane
      self.number = number
      location = source
    }

    var source: String { location.description }
  }

  /// One stored event: what happened, when, on which thread (an index into the thread names) and to which
  /// subscription.
  struct Record {
    var time: Int64
    var thread: Int32
    var kind: Event.Kind
    var subscription: SubscriptionRecord
  }

  /// The events, kept in a ring of at most `capacity`, and the names of the threads they happened on.
  struct Storage {
    /// The events; once full, `head` is the oldest and each new event replaces it.
    var records: [Record] = []
    var head = 0
    var dropped = 0
    /// The latest time stamped, so that times never go backwards in recording order.
    var latest = Int64.min
    var subscriptionCounts: [String: Int] = [:]
    var threadNames: [String] = []
    var threadIndices: [ThreadIdentity: Int32] = [:]
    /// The thread of the previous event: most events come from the thread that recorded the one before.
    var lastThread: (identity: ThreadIdentity, index: Int32)?

    var orderedRecords: [Record] {
      head == 0 ? records : Array(records[head...] + records[..<head])
    }

    mutating func append(
      _ kind: Event.Kind,
      for subscription: SubscriptionRecord,
      at time: Int64,
      on thread: ThreadIdentity,
      capacity: Int
    ) {
      latest = max(latest, time)
      let record = Record(time: latest, thread: index(of: thread), kind: kind, subscription: subscription)
      if records.count < capacity {
        records.append(record)
      } else {
        records[head] = record
        head = head + 1 == capacity ? 0 : head + 1
        dropped += 1
      }
    }

    /// The index of a thread's name, naming it on first sight: `main`, or `thread 1`, `thread 2` and so on, in
    /// the order the timeline first sees them.
    private mutating func index(of thread: ThreadIdentity) -> Int32 {
      if let lastThread, lastThread.identity == thread { return lastThread.index }
      let index: Int32
      if let known = threadIndices[thread] {
        index = known
      } else {
        index = Int32(threadNames.count)
        let others = threadNames.filter { $0 != "main" }.count
        threadNames.append(Thread.isMainThread ? "main" : "thread \(others + 1)")
        threadIndices[thread] = index
      }
      lastThread = (thread, index)
      return index
    }
  }
}
