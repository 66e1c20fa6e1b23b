// `Just.dropFirst()` is an `Optional.Publisher` (Combine's specialization), which may publish nothing: a maybe
// publisher, not a single one.
// expected-error: requires that 'Optional<Int>.Publisher' conform to 'SinglePublisher'
import RillExt

let maybe: AnyMaybePublisher<Int, Never> = AnyMaybePublisher(Just(1).dropFirst())
let single = AnySinglePublisher(Just(1).dropFirst())
