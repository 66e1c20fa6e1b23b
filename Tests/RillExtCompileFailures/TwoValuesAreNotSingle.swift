// A sequence publisher can publish two values, so it is no single publisher.
// expected-error: value of type 'Publishers.Sequence<[Int], Never>' has no member 'eraseToAnySinglePublisher'
import RillExt

let twoValues: AnySinglePublisher<Int, Never> = [1, 2].publisher.eraseToAnySinglePublisher()
