// Two `Just`s merged publish two values, so the merge is no maybe publisher.
// expected-error: requires that 'Publishers.Merge<Just<Int>, Just<Int>>' conform to 'MaybePublisher'
import RillExt

let twoValues = AnyMaybePublisher(Just(1).merge(with: Just(2)))
