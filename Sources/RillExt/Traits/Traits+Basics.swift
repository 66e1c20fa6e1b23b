// The traits of Combine's publishers that need no upstream: each keeps its trait's promise by construction.

extension Just: SinglePublisher, MaybePublisher, ImmediatePublisher {}
extension Fail: SinglePublisher, MaybePublisher, ImmediatePublisher {}
extension Empty: MaybePublisher {}
extension Future: SinglePublisher, MaybePublisher {}
extension Result.Publisher: SinglePublisher, MaybePublisher, ImmediatePublisher {}
// Beyond CombineTraits: `Optional.Publisher` publishes its value, if any, then finishes.
extension Optional.Publisher: MaybePublisher {}
// As in CombineTraits: a sequence publisher or a record publishes on subscription (given a value to publish).
extension Publishers.Sequence: ImmediatePublisher {}
extension Record: ImmediatePublisher {}
// A current value subject sends its value, or its completion, on subscription.
extension CurrentValueSubject: ImmediatePublisher {}

extension Deferred: SinglePublisher where DeferredPublisher: SinglePublisher {}
extension Deferred: MaybePublisher where DeferredPublisher: MaybePublisher {}
extension Deferred: ImmediatePublisher where DeferredPublisher: ImmediatePublisher {}

// A publisher that cannot publish a value publishes at most one.
extension AnyPublisher: MaybePublisher where Output == Never {}
