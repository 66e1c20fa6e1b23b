import RillExt
import RillTestSupport
import Testing

/// The operators whose CombineExt subscriptions take demand into a buffer accept a request of `.none`, as CombineExt's
/// do: nothing happens, and a later request works.
@Suite struct RequestOfNoneTests {
  @Test func aRequestOfNoneDoesNothing() {
    func check<P: Publisher>(_ name: String, _ publisher: P) {
      var subscription: (any Subscription)?
      var values = 0
      publisher.subscribe(
        AnySubscriber<P.Output, P.Failure>(
          receiveSubscription: { subscription = $0 },
          receiveValue: { _ in
            values += 1
            return .none
          }
        )
      )
      subscription?.request(.none)
      expectEqual(values, 0, "\(name)")
      subscription?.request(.max(1))
      expectEqual(values, 1, "\(name)")
      subscription?.cancel()
    }
    check("amb", Just(1).amb(Just(2)))
    check("withLatestFrom", Just(1).withLatestFrom(Just(2)))
    check("materialize", Just(1).materialize())
    check("dematerialize", Just(1).materialize().dematerialize())
  }
}
