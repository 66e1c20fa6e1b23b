// A sequence publisher may publish many values, so a collection of them cannot be zipped into one single.
// expected-error: requires that 'Publishers.Sequence<[Int], Never>' conform to 'SinglePublisher'
import RillExt

let zipped = [[1, 2].publisher, [3].publisher].zipSingle()
