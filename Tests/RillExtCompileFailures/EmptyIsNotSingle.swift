// An empty publisher finishes without a value, so it is no single publisher.
// expected-error: value of type 'Empty<Int, Never>' has no member 'sinkSingle'
import RillExt

let noValue = Empty<Int, Never>().sinkSingle { _ in }
