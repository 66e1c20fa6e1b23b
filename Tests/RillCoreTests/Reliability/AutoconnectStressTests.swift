import Foundation
import RillCore
import RillTestSupport
import Testing

/// Subscribers arriving at `share()`, `multicast(_:).autoconnect()` and `share(replay:)`'s engine from two threads
/// at once.
@Suite(.tags(.stress), .timeLimit(.minutes(1)))
struct AutoconnectStressTests {
  enum Kind: String, CaseIterable, CustomStringConvertible {
    case share
    case autoconnect

    var description: String { rawValue }

    func make(_ source: some Publisher<Int, Never>) -> AnyPublisher<Int, Never> {
      switch self {
      case .share: source.share().eraseToAnyPublisher()
      case .autoconnect: source.multicast { PassthroughSubject() }.autoconnect().eraseToAnyPublisher()
      }
    }
  }

  /// Two subscribers arriving at once make one connection and count as two: the first one's cancel leaves the other
  /// subscribed, a value reaches it once, and the second cancel ends the connection.
  @Test(arguments: Kind.allCases)
  func twoSubscribersArrivingAtOnceShareOneConnection(kind: Kind) {
    for round in 0..<StressThreads.scaled(1_000) {
      let subject = PassthroughSubject<Int, Never>()
      let connections = StressLocked(0)
      let disconnections = StressLocked(0)
      let shared = kind.make(
        subject.handleEvents(
          receiveSubscription: { _ in connections.withLock { $0 += 1 } },
          receiveCancel: { disconnections.withLock { $0 += 1 } }
        )
      )
      let recorders = [StressRecorder<Int, Never>(), StressRecorder<Int, Never>()]
      #expect(StressThreads.run(2) { shared.subscribe(recorders[$0]) })
      let connected = connections.withLock { $0 }
      recorders[round % 2].cancel()
      subject.send(1)
      let remaining = recorders[1 - round % 2]
      let heard = remaining.values
      remaining.cancel()
      let disconnected = disconnections.withLock { $0 }
      guard connected == 1, heard == [1], disconnected == 1 else {
        Issue.record(
          "round \(round): \(connected) connections, the remaining subscriber heard \(heard), \(disconnected) cancels"
        )
        return
      }
    }
  }

  /// Subscribers that come and go from two threads at once never see a value twice: a new connection is never made
  /// while the previous one is still up.
  @Test(arguments: Kind.allCases)
  func subscribersComingAndGoingNeverSeeAValueTwice(kind: Kind) {
    let subject = PassthroughSubject<Int, Never>()
    let live = StressLocked((now: 0, most: 0))
    let shared = kind.make(
      subject.handleEvents(
        receiveSubscription: { _ in
          live.withLock { live in
            live.now += 1
            live.most = max(live.most, live.now)
          }
        },
        receiveCancel: { live.withLock { $0.now -= 1 } }
      )
    )
    let recorders = StressLocked<[StressRecorder<Int, Never>]>([])
    #expect(
      StressThreads.run(3) { index in
        for value in 0..<StressThreads.scaled(2_000) {
          if index == 2 {
            subject.send(value)
            continue
          }
          let recorder = StressRecorder<Int, Never>()
          shared.subscribe(recorder)
          recorders.withLock { $0.append(recorder) }
          recorder.cancel()
        }
      }
    )
    #expect(live.withLock { $0.most } == 1)
    for recorder in recorders.withLock({ $0 }) {
      let values = recorder.values
      expectEqual(Set(values).count, values.count, "a value twice: \(values)")
    }
  }
}
