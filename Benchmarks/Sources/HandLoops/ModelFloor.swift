// The send of Combine's model to one sink, written by hand for `Int`: the least a framework can spend on a
// `PassthroughSubject.send` that keeps Combine's observable behaviour, which Rill keeps.
//
// What it keeps, each because Combine's behaviour needs it:
// - the subject's lock, under which the send claims one value of the subscriber's demand (Combine's conduit has a
//   lock of its own for that; Rill and this model keep the demand under the subject's lock);
// - the subscriber table, retained for the send, so that a subscriber that cancels or subscribes from inside the
//   call does not free the table the send walks;
// - the subscriber's recursive delivery lock around the call, and the check under it that the subscription has not
//   ended while the send waited;
// - the `Sink`'s lock, under which it copies (retains) its closure, so that a cancel on another thread can release
//   the closure while the call runs;
// - the demand the subscriber returns, added under the subject's lock when it is not zero;
// - one indirect call per subscriber, as a subject's subscribers are of any type.
//
// What it leaves out, which Rill's send also does: more than 64 subscribers, a current value, a replay buffer, a
// subscription's mirror, and Swift's dynamic exclusivity checks (Rill's state is reached through its lock, which
// needs none). `rill-probe loop "model floor"` runs it; Benchmarks/README.md compares it with Rill's send.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `pthread_mutex_t` at a fixed address.
final class FloorMutex {
  let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

  init(recursive: Bool) {
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    if recursive { pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE)) }
    pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  @inline(__always) func lock() { pthread_mutex_lock(mutex) }
  @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }
}

/// `Sink`: a closure, released by a cancel from any thread, so copied under the lock for each value.
final class FloorSink {
  let lock = FloorMutex(recursive: false)
  // A cancel would replace it with an empty closure. No dynamic exclusivity check here or below: the lock is the
  // check, as in Rill, whose state is reached through its lock.
  @exclusivity(unchecked) var receiveValue: (Int) -> Void

  init(_ receiveValue: @escaping (Int) -> Void) { self.receiveValue = receiveValue }

  @inline(__always) func receive(_ value: Int) -> UInt {
    lock.lock()
    let closure = receiveValue
    lock.unlock()
    closure(value)
    return 0
  }
}

/// A subscription: the delivery lock held around each call to the subscriber, and whether it has ended.
///
/// The subject reaches its subscriber through a method that a subclass overrides for the subscriber's type, as
/// Combine's conduits do: the cheapest of the indirect calls measured (a closure that captures the sink cost 13
/// instructions more per send).
class FloorConduit {
  let delivery = FloorMutex(recursive: true)
  @exclusivity(unchecked) var ended = false

  func receive(_ value: Int) -> UInt { 0 }

  @inline(__always) final func deliver(_ value: Int) -> UInt {
    delivery.lock()
    defer { delivery.unlock() }
    return ended ? 0 : receive(value)
  }
}

/// The subscription of a `FloorSink`.
final class FloorSinkConduit: FloorConduit {
  let sink: FloorSink

  init(_ sink: FloorSink) { self.sink = sink }

  override func receive(_ value: Int) -> UInt { sink.receive(value) }
}

/// A subject: its subscriptions and their demand, under its lock.
final class FloorSubject {
  let lock = FloorMutex(recursive: false)
  @exclusivity(unchecked) var conduits = ContiguousArray<FloorConduit>()
  @exclusivity(unchecked) var demands = ContiguousArray<UInt>()
  @exclusivity(unchecked) var completed = false

  @inline(never) func send(_ value: Int) {
    lock.lock()
    guard !completed, !conduits.isEmpty else { return lock.unlock() }
    var claimed: UInt64 = 0
    for index in 0..<min(conduits.count, 64) where demands[index] != 0 {
      if demands[index] != .max { demands[index] &-= 1 }
      claimed |= 1 &<< UInt64(index)
    }
    let table = conduits
    lock.unlock()
    while claimed != 0 {
      let index = claimed.trailingZeroBitCount
      claimed &= claimed &- 1
      let more = table[index].deliver(value)
      if more != 0 {
        lock.lock()
        demands[index] = demands[index] &+ more
        lock.unlock()
      }
    }
  }
}

extension HandLoops {
  /// Combine's model of a send to one sink (above), with unlimited demand, as `Workloads.passthroughOne` sends.
  static func modelFloorSend(_ n: Int) -> Int {
    let sink = LoopSink()
    let subject = FloorSubject()
    subject.conduits = [FloorSinkConduit(FloorSink { sink.pointer.pointee &+= $0 })]
    subject.demands = [.max]
    for i in 0..<n { subject.send(i) }
    return sink.pointer.pointee
  }
}
