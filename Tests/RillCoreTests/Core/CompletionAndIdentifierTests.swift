import Foundation
import RillCore
import RillTestSupport
import Testing

@Suite struct CompletionAndIdentifierTests {
  private enum TestError: Error, Hashable, Codable { case boom }

  @Test func completionIsEquatableAndHashable() {
    let finished = Subscribers.Completion<TestError>.finished
    let failure = Subscribers.Completion<TestError>.failure(.boom)
    expectEqual(finished, .finished)
    expectEqual(failure, .failure(.boom))
    #expect(finished != failure)
    expectEqual(Set([finished, failure, .finished]).count, 2)
  }

  @Test func completionIsCodable() throws {
    let completions: [Subscribers.Completion<TestError>] = [.finished, .failure(.boom)]
    let data = try JSONEncoder().encode(completions)
    #expect(try JSONDecoder().decode([Subscribers.Completion<TestError>].self, from: data) == completions)
  }

  @Test func identifiersAreUnique() {
    let identifiers = (0..<1000).map { _ in CombineIdentifier() }
    expectEqual(Set(identifiers).count, 1000)
    #expect(identifiers[0].description.hasPrefix("0x"))
  }

  @Test func objectIdentifiersFollowIdentity() {
    final class Object {}
    let object = Object()
    expectEqual(CombineIdentifier(object), CombineIdentifier(object))
    #expect(CombineIdentifier(object) != CombineIdentifier(Object()))
  }

  /// An object's identifier is described by the object's address, as in Combine.
  @Test func objectIdentifierDescribesTheAddress() {
    final class Object {}
    let object = Object()
    let address = String(UInt(bitPattern: ObjectIdentifier(object)), radix: 16)
    expectEqual(CombineIdentifier(object).description, "0x" + address)
  }

  @Test func subscriptionsEmptyIgnoresEverything() {
    let empty = Subscriptions.empty
    empty.request(.max(1))
    empty.cancel()
    expectEqual(empty.combineIdentifier, Subscriptions.empty.combineIdentifier)
    expectEqual("\(empty)", "Empty")
  }
}
