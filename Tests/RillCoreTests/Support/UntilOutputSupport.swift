import RillCore
import RillTesting
import Testing

/// The operator `expectUntilOutputPipelineFreed` builds the pipeline with.
enum UntilOutputOperator {
  case drop
  case prefix
}

/// Builds a `drop(untilOutputFrom:)` or `prefix(untilOutputFrom:)` pipeline whose downstream keeps the other
/// publisher alive, as a downstream leading back to it does (`flatMap { _ in other }`), lets `end` end it, lets
/// go of it, and expects all of it to be gone.
///
/// `TestPublisher` never lets go of a subscriber by itself, so the other publisher keeps its subscription, which
/// keeps the operator's subscriber for it, which reaches the operator's subscription: a reference cycle through
/// downstream back to the other publisher, which only the operator can break, by letting go of downstream when the
/// stream ends.
func expectUntilOutputPipelineFreed(
  _ untilOutputOperator: UntilOutputOperator,
  initialDemand: Subscribers.Demand = .unlimited,
  sourceLocation: SourceLocation = #_sourceLocation,
  end: (TransformUpstream, TransformUpstream, TestSubscriber<Int, TransformTestError>) -> Void
) {
  weak var weakSubscriber: TestSubscriber<Int, TransformTestError>?
  weak var weakOther: TransformUpstream?
  weak var weakOtherSubscription: TestSubscription?
  weak var weakOperatorSubscription: AnyObject?
  do {
    let upstream = TransformUpstream()
    let other = TransformUpstream()
    let subscriber = TestSubscriber<Int, TransformTestError>(
      initialDemand: initialDemand,
      onCompletion: { _, _ in withExtendedLifetime(other) {} }
    )
    switch untilOutputOperator {
    case .drop: upstream.drop(untilOutputFrom: other).subscribe(subscriber)
    case .prefix: upstream.prefix(untilOutputFrom: other).subscribe(subscriber)
    }
    weakSubscriber = subscriber
    weakOther = other
    weakOtherSubscription = other.subscriptions.first
    weakOperatorSubscription = subscriber.subscription.map { $0 as AnyObject }
    #expect(
      weakOtherSubscription != nil,
      "the operator subscribed to the other publisher",
      sourceLocation: sourceLocation
    )
    #expect(weakOperatorSubscription != nil, "downstream has its subscription", sourceLocation: sourceLocation)
    end(upstream, other, subscriber)
  }
  #expect(weakSubscriber == nil, "downstream is freed", sourceLocation: sourceLocation)
  #expect(weakOther == nil, "the other publisher is freed", sourceLocation: sourceLocation)
  #expect(
    weakOtherSubscription == nil,
    "the other publisher's subscription, and the subscriber it keeps, are freed",
    sourceLocation: sourceLocation
  )
  #expect(weakOperatorSubscription == nil, "the operator's subscription is freed", sourceLocation: sourceLocation)
}
