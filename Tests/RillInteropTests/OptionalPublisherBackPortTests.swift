import RillCore
import RillInteropFixtures
import Testing

@Suite struct OptionalPublisherBackPortTests {
  /// Rill's `Optional.publisher` is a disfavoured overload, so a library's back-port does not make
  /// every use ambiguous (this file does not compile otherwise): the back-port is chosen without a type.
  @Test func aLibrarysBackPortIsChosenWithoutAmbiguity() {
    let publisher = Optional(1).publisher
    #expect(publisher.value == 1)
  }

  @Test func rillsPublisherIsChosenByItsType() {
    let publisher: Optional<Int>.Publisher = Optional(1).publisher
    #expect(publisher.output == 1)
  }
}
