import RillCore
import Testing

/// The mirrors of the simple operators' subscribers, labelled and ordered as Combine's: users see them in the
/// debugger and in `dump`.
@Suite struct SimpleOperatorMirrorTests {
  /// Encodes by describing the value.
  private struct DescribingEncoder: TopLevelEncoder {
    func encode<T: Encodable>(_ value: T) throws -> String { "\(value)" }
  }

  /// A publisher that keeps the subscriber it is given and sends it nothing.
  private final class Capturing: Publisher {
    typealias Output = Int
    typealias Failure = Never

    var subscriber: Any?

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
      self.subscriber = subscriber
    }
  }

  /// The labels and described values of the mirror of the subscriber that `makeOperator` attaches upstream.
  private func children<P: Publisher>(_ makeOperator: (Capturing) -> P) throws -> [(String?, String)] {
    let upstream = Capturing()
    makeOperator(upstream).subscribe(AnySubscriber<P.Output, P.Failure>())
    let subscriber = try #require(upstream.subscriber)
    let mirror = try #require(subscriber as? any CustomReflectable).customMirror
    return mirror.children.map { ($0.label, String(describing: $0.value)) }
  }

  private func labels<P: Publisher>(_ makeOperator: (Capturing) -> P) throws -> [String?] {
    try children(makeOperator).map(\.0)
  }

  @Test func operatorsWithoutChildren() throws {
    #expect(try labels { $0.map { $0 } }.isEmpty)
    #expect(try labels { $0.tryMap { $0 } }.isEmpty)
    #expect(try labels { $0.map { Optional($0) }.replaceNil(with: 0) }.isEmpty)
    #expect(try labels { $0.setFailureType(to: (any Error).self).mapError { $0 } }.isEmpty)
    #expect(try labels { $0.setFailureType(to: (any Error).self) }.isEmpty)
    #expect(try labels { $0.ignoreOutput() }.isEmpty)
    #expect(try labels { $0.filter { _ in true } }.isEmpty)
    #expect(try labels { $0.compactMap { $0 } }.isEmpty)
    #expect(try labels { $0.dropFirst() }.isEmpty)
    #expect(try labels { $0.drop { _ in true } }.isEmpty)
    #expect(try labels { $0.tryDrop { _ in true } }.isEmpty)
    #expect(try labels { $0.output(in: 0..<2) }.isEmpty)
    #expect(try labels { $0.replaceEmpty(with: 0) }.isEmpty)
    #expect(try labels { $0.setFailureType(to: (any Error).self).replaceError(with: 0) }.isEmpty)
  }

  @Test func operatorsThatShowDownstream() throws {
    #expect(try labels { $0.tryFilter { _ in true } } == ["downstream"])
    #expect(try labels { $0.tryCompactMap { $0 } } == ["downstream"])
    #expect(try labels { $0.prefix { _ in true } } == ["downstream"])
    #expect(try labels { $0.tryPrefix { _ in true } } == ["downstream"])
  }

  @Test func operatorsWithState() throws {
    #expect(try labels { $0.removeDuplicates() } == ["downstream", "last"])
    #expect(try children { $0.removeDuplicates() }.last?.1 == "nil")
    #expect(try labels { $0.tryRemoveDuplicates { $0 == $1 } } == ["downstream", "last"])
    #expect(try labels { $0.tryScan(0, +) } == ["downstream", "status", "result"])
    #expect(try children { $0.tryScan(7, +) }.last?.1 == "7")
    #expect(
      try labels { $0.encode(encoder: DescribingEncoder()) } == ["downstream", "finished", "upstreamSubscription"]
    )
    #expect(try children { $0.encode(encoder: DescribingEncoder()) }[1].1 == "false")
  }

  /// One key path is labelled `keyPath`; several are numbered from zero.
  @Test func keyPathMapsShowTheirKeyPaths() throws {
    #expect(try labels { $0.map(\.self) } == ["keyPath"])
    #expect(try labels { $0.map(\.self, \.bitWidth) } == ["keyPath0", "keyPath1"])
    #expect(try labels { $0.map(\.self, \.bitWidth, \.byteSwapped) } == ["keyPath0", "keyPath1", "keyPath2"])
  }
}
