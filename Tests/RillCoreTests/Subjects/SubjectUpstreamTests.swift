import Foundation
import RillTestSupport
import Testing

@testable import RillCore

/// A subject forgets an upstream subscription once it has completed or been cancelled, so that connecting and
/// disconnecting again and again keeps its memory flat.
@Suite struct SubjectUpstreamTests {
  /// A million connections of a multicast subject, each cancelled, leave no upstream subscription behind: the
  /// subject's memory stays flat, and so does the process's (where it can be read).
  ///
  /// Each subscription kept used to cost about 200 bytes: 200 MB over a million cycles. The bound on the resident
  /// memory's growth leaves room for the tests that run beside this one.
  ///
  /// It yields now and then, so that the tests that run beside it on the shared threads are not held up.
  @Test(.tags(.stress), .timeLimit(.minutes(5))) func aMillionConnectionsLeaveNothingBehind() async {
    let source = PassthroughSubject<Int, Never>()
    let subject = PassthroughSubject<Int, Never>()
    let multicast = source.multicast(subject: subject)
    let cycles = StressThreads.scaled(1_000_000)
    var residentAtStart: Int?
    for cycle in 1...cycles {
      multicast.connect().cancel()
      if cycle == cycles / 10 { residentAtStart = residentBytes() }
      if cycle % 10_000 == 0 { await Task.yield() }
      if cycle % 100_000 == 0 { #expect(subject.core.upstreamCount == 0) }
    }
    expectEqual(subject.core.upstreamCount, 0)
    if let residentAtStart, let residentAtEnd = residentBytes() {
      let growth = residentAtEnd - residentAtStart
      #expect(growth < 64 << 20, "resident memory grew by \(growth >> 20) MB over \(cycles * 9 / 10) cycles")
    }
  }

  /// `share()` connects on each first subscriber and disconnects on its cancel: each connection is forgotten.
  @Test(.tags(.stress)) func shareForgetsEachConnection() {
    let source = PassthroughSubject<Int, Never>()
    let subject = PassthroughSubject<Int, Never>()
    let shared = source.multicast(subject: subject).autoconnect()
    let cycles = StressThreads.scaled(100_000)
    var received = 0
    for value in 0..<cycles {
      let cancellable = shared.sink { _ in received += 1 }
      source.send(value)
      cancellable.cancel()
    }
    expectEqual(received, cycles)
    expectEqual(subject.core.upstreamCount, 0)
  }

  /// A connection cancelled by hand is forgotten, for each kind of subject.
  @Test func aCancelledConnectionIsForgotten() {
    let source = PassthroughSubject<Int, Never>()
    let passthrough = PassthroughSubject<Int, Never>()
    let current = CurrentValueSubject<Int, Never>(0)
    let first = source.subscribe(passthrough)
    let second = source.subscribe(current)
    expectEqual(passthrough.core.upstreamCount, 1)
    expectEqual(current.core.upstreamCount, 1)
    first.cancel()
    second.cancel()
    expectEqual(passthrough.core.upstreamCount, 0)
    expectEqual(current.core.upstreamCount, 0)
  }

  /// A connection whose upstream completes is forgotten; the others stay, and are cancelled when the subject goes.
  @Test func aCompletedConnectionIsForgottenAndTheOthersKept() {
    let finishing = PassthroughSubject<Int, Never>()
    let lasting = PassthroughSubject<Int, Never>()
    var subject: PassthroughSubject<Int, Never>? = PassthroughSubject()
    let first = finishing.subscribe(subject!)
    let second = lasting.subscribe(subject!)
    let sink = subject!.sink { _ in }
    expectEqual(subject!.core.upstreamCount, 2)
    finishing.send(completion: .finished)
    expectEqual(subject!.core.upstreamCount, 1)
    #expect(lasting.core.state.withLock { $0.entries.count } == 1)
    subject = nil
    // The subject is gone once its subscriber's subscription ended with the completion: it cancelled the upstream
    // subscription it kept, which left `lasting`.
    #expect(lasting.core.state.withLock { $0.entries.count } == 0)
    _ = (first, second, sink)
  }

  /// `multicast` with a current value subject, connected and cancelled many times, keeps nothing either.
  @Test func multicastForgetsEachConnection() {
    let source = PassthroughSubject<Int, Never>()
    let subject = CurrentValueSubject<Int, Never>(0)
    let multicast = source.multicast(subject: subject)
    for _ in 0..<1_000 {
      let connection = multicast.connect()
      connection.cancel()
    }
    expectEqual(subject.core.upstreamCount, 0)
  }
}

/// The process's resident memory in bytes, where the system shows it (`/proc/self/statm` on Linux); else `nil`.
private func residentBytes() -> Int? {
  guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
  let fields = statm.split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
