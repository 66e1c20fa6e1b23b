// A server-shaped load, written once and compiled against Rill and, through a symlink, against OpenCombine: an event
// bus (a subject) fed at a fixed rate, streamed to many clients, each through handleEvents → filter → map →
// buffer(64, .byRequest, .dropOldest) → prefix(untilOutputFrom:) → values and consumed by a task of its own, and a
// shared summary with throttle and removeDuplicates, as a service that pushes events to its clients does.
// `rill-server-load` runs it for both frameworks and compares the CPU time each spends per delivered event.
import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One event on the bus: which topic it belongs to and what it carries.
struct BusEvent {
  let sequence: Int
  let topic: Int
  let payload: Int
}

/// What a client receives: the event, formatted for it.
struct ClientMessage {
  let sequence: Int
  let body: Int
}

/// The outcome of one run: what was sent and delivered, and the process's CPU time (user + system) meanwhile.
public struct ServerLoadResult: Sendable {
  public let sent: Int
  public let delivered: Int
  public let summaries: Int
  public let cpuMicroseconds: Double
  public let wallSeconds: Double

  /// CPU time per delivered event, in microseconds.
  public var cpuPerDelivery: Double { cpuMicroseconds / Double(max(delivered, 1)) }
}

/// The process's user and system CPU time so far, in microseconds.
func processCPUMicroseconds() -> Double {
  var usage = rusage()
  #if canImport(Glibc)
  getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
  #else
  getrusage(RUSAGE_SELF, &usage)
  #endif
  let user = Double(usage.ru_utime.tv_sec) * 1e6 + Double(usage.ru_utime.tv_usec)
  let system = Double(usage.ru_stime.tv_sec) * 1e6 + Double(usage.ru_stime.tv_usec)
  return user + system
}

/// Counts from many tasks at once.
final class SharedCount: @unchecked Sendable {
  private var value = 0
  private var lock = pthread_mutex_t()

  init() { pthread_mutex_init(&lock, nil) }

  deinit { pthread_mutex_destroy(&lock) }

  func add(_ amount: Int) {
    pthread_mutex_lock(&lock)
    value &+= amount
    pthread_mutex_unlock(&lock)
  }

  var total: Int {
    pthread_mutex_lock(&lock)
    defer { pthread_mutex_unlock(&lock) }
    return value
  }
}

public enum ServerLoad {
  /// Topics on the bus; client `c` follows topic `c % topics`.
  static let topics = 8

  /// Runs the load: `clients` clients, `rate` events a second on the bus for `seconds` seconds.
  public static func run(clients: Int, rate: Int, seconds: Double) -> ServerLoadResult {
    let bus = PassthroughSubject<BusEvent, Never>()
    let stop = PassthroughSubject<Void, Never>()
    let delivered = SharedCount()
    let seen = SharedCount()
    let finished = DispatchGroup()
    let summaryQueue = DispatchQueue(label: "rill.benchmarks.server.summary")

    // The shared summary: the latest sequence number per topic 0, throttled and without repeats, for two watchers.
    let summaries = SharedCount()
    let summary = bus.map { $0.topic == 0 ? $0.sequence / 100 : -1 }.filter { $0 >= 0 }.share()
    var watchers: [AnyCancellable] = []
    for _ in 0..<2 {
      watchers.append(
        summary.throttle(for: .milliseconds(20), scheduler: scheduler(for: summaryQueue), latest: true)
          .removeDuplicates()
          .sink { _ in summaries.add(1) }
      )
    }

    // The clients: each subscribes before the first event and reads until `stop` fires.
    let subscribed = DispatchGroup()
    for client in 0..<clients {
      let topic = client % topics
      let stream = bus.handleEvents(receiveOutput: { _ in })
        .filter { $0.topic == topic }
        .map { ClientMessage(sequence: $0.sequence, body: $0.payload &* 31 &+ client) }
        .buffer(size: 64, prefetch: .byRequest, whenFull: .dropOldest)
        .prefix(untilOutputFrom: stop)
        .values
      subscribed.enter()
      finished.enter()
      Task {
        var count = 0
        var checksum = 0
        var iterator = stream.makeAsyncIterator()
        subscribed.leave()
        while let message = await iterator.next() {
          count += 1
          checksum &+= message.body
        }
        delivered.add(count)
        seen.add(checksum & 1)
        finished.leave()
      }
    }
    subscribed.wait()

    let cpuBefore = processCPUMicroseconds()
    let wallBefore = DispatchTime.now().uptimeNanoseconds
    // The feeder: sends the events due by now, every millisecond, so the bus runs at `rate` whatever each send costs.
    let total = Int(Double(rate) * seconds)
    var sent = 0
    while sent < total {
      let elapsed = Double(DispatchTime.now().uptimeNanoseconds - wallBefore) / 1e9
      let due = min(total, Int(elapsed * Double(rate)))
      while sent < due {
        bus.send(BusEvent(sequence: sent, topic: sent % topics, payload: sent))
        sent += 1
      }
      usleep(1000)
    }
    // Let the clients drain what they buffered, then end their streams and wait for every task.
    usleep(50_000)
    stop.send()
    finished.wait()
    let cpu = processCPUMicroseconds() - cpuBefore
    let wall = Double(DispatchTime.now().uptimeNanoseconds - wallBefore) / 1e9
    for watcher in watchers { watcher.cancel() }
    summaryQueue.sync {}
    return ServerLoadResult(
      sent: sent,
      delivered: delivered.total,
      summaries: summaries.total,
      cpuMicroseconds: cpu,
      wallSeconds: wall
    )
  }
}
