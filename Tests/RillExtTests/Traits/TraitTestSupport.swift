import RillExt
import RillTesting

/// Forwards a hand-driven `ExtUpstream` and declares every trait, so that the trait tools can be tested on events
/// the test chooses (including ones that break the promise, which the trait tools must pass on untouched).
struct TrustedUpstream: SinglePublisher, ImmediatePublisher {
  typealias Output = Int
  typealias Failure = ExtTestError

  let upstream: ExtUpstream

  func receive<S>(subscriber: S) where S: Subscriber, S.Input == Int, S.Failure == ExtTestError {
    upstream.receive(subscriber: subscriber)
  }
}

/// Collects the results a `sinkMaybe` or `sinkSingle` closure receives.
final class ResultBox<R> {
  var results: [R] = []
}
