// A single publisher flat-mapped into a sequence publisher can publish two values.
// expected-error: requires that 'Publishers.Sequence<[Int], Never>' conform to 'SinglePublisher'
import RillExt

let twoValues = Just(1).flatMap { [$0, $0].publisher }.eraseToAnySinglePublisher()
