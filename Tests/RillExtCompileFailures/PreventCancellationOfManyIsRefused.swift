// `preventCancellation()` is for work that ends after at most one value: a publisher of many is refused.
// expected-error: requires that 'Publishers.Sequence<[Int], Never>' conform to 'MaybePublisher'
import RillExt

let kept = TraitPublishers.PreventCancellation(upstream: [1, 2].publisher)
