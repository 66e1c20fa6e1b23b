import Rill
import RillExt
import RillTestSupport
import RillTesting
import Testing

private final class Box {
  var value = 0
}

/// Calls that name both a Combine operator and a CombineExt one resolve as they do on Apple's systems, with both
/// modules imported: the call without CombineExt's extra argument is Combine's.
@Suite struct CombineCollisionTests {
  @Test func combinesCallsStayCombines() {
    let just = Just(1)
    let _: Publishers.PrefixWhile<Just<Int>> = just.prefix(while: { $0 > 0 })
    let _: AnyPublisher<Int, Never> = just.prefix(while: { $0 > 0 }, behavior: .inclusive)
    let _: Publishers.Zip<Just<Int>, Just<Int>> = just.zip(Just(2))
    let _: AnyPublisher<[Int], Never> = just.zip(with: Just(2))
    let _: Publishers.CombineLatest<Just<Int>, Just<Int>> = just.combineLatest(Just(2))
    let _: AnyPublisher<[Int], Never> = just.combineLatest(with: Just(2))
    let _: Publishers.Merge<Just<Int>, Just<Int>> = just.merge(with: Just(2))
    let _: AnyPublisher<Int, Never> = [just, Just(2)].merge()
    let _: AnyPublisher<Int, Never> = AnyPublisher(just)
    let _: AnyPublisher<Int, Never> = AnyPublisher { subscriber in
      subscriber.send(1)
      return AnyCancellable {}
    }
    let box = Box()
    let combines: AnyCancellable = just.assign(to: \.value, on: box)
    let weakly: AnyCancellable = Just(2).assign(to: \.value, on: box, ownership: .weak)
    expectEqual(box.value, 2)
    combines.cancel()
    weakly.cancel()
  }
}
