// The traits of Combine's publishers that need no upstream: each keeps its trait's promise by construction.

extension Just: SinglePublisher, MaybePublisher, ImmediatePublisher {}
extension Fail: SinglePublisher, MaybePublisher, ImmediatePublisher {}
extension Empty: MaybePublisher {}
extension Future: SinglePublisher, MaybePublisher {}
extension Result.Publisher: SinglePublisher, MaybePublisher, ImmediatePublisher {}
// Beyond CombineTraits: `Optional.Publisher` publishes its value, if any, then finishes.
extension Optional.Publisher: MaybePublisher {}
// As in CombineTraits: a record publishes on subscription (given a value to publish). A sequence publisher is not
// immediate, as a sequence may be empty, nor a current value subject, which sends no value once completed.
extension Record: ImmediatePublisher {}

extension Deferred: SinglePublisher where DeferredPublisher: SinglePublisher {}
extension Deferred: MaybePublisher where DeferredPublisher: MaybePublisher {}
extension Deferred: ImmediatePublisher where DeferredPublisher: ImmediatePublisher {}

// A publisher that cannot publish a value publishes at most one.
extension AnyPublisher: MaybePublisher where Output == Never {}
