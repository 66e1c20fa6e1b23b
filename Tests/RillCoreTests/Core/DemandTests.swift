import Foundation
import RillCore
import Testing

@Suite struct DemandTests {
  typealias Demand = Subscribers.Demand

  @Test func constantsAndDescription() {
    #expect(Demand.none == .max(0))
    #expect(Demand.unlimited.max == nil)
    #expect(Demand.max(3).max == 3)
    #expect(Demand.unlimited.description == "unlimited")
    #expect(Demand.max(42).description == "max(42)")
    #expect(Demand.none.description == "max(0)")
  }

  @Test func addition() {
    #expect(Demand.max(1) + .max(2) == .max(3))
    #expect(Demand.max(1) + .unlimited == .unlimited)
    #expect(Demand.unlimited + .max(1) == .unlimited)
    #expect(Demand.max(Int.max) + .max(1) == .unlimited)
    #expect(Demand.max(Int.max) + .max(Int.max) == .unlimited)
    #expect(Demand.unlimited + .unlimited == .unlimited)
    #expect(Demand.unlimited - .unlimited == .unlimited)
    #expect(Demand.max(3) - .unlimited == .none)
    #expect(Demand.max(1) + 2 == .max(3))
    #expect(Demand.max(5) + -2 == .max(3))
    #expect(Demand.unlimited + 1 == .unlimited)
    var demand = Demand.max(1)
    demand += .max(4)
    #expect(demand == .max(5))
    demand += 1
    #expect(demand == .max(6))
  }

  @Test func subtractionClampsAtZero() {
    #expect(Demand.max(5) - .max(2) == .max(3))
    #expect(Demand.max(2) - .max(5) == .none)
    #expect(Demand.unlimited - .max(5) == .unlimited)
    #expect(Demand.unlimited - .unlimited == .unlimited)
    #expect(Demand.max(5) - .unlimited == .none)
    #expect(Demand.max(5) - 1 == .max(4))
    #expect(Demand.max(1) - 3 == .none)
    var demand = Demand.max(3)
    demand -= 1
    #expect(demand == .max(2))
    demand -= .max(5)
    #expect(demand == .none)
  }

  @Test func multiplication() {
    #expect(Demand.max(3) * 4 == .max(12))
    #expect(Demand.unlimited * 2 == .unlimited)
    #expect(Demand.max(Int.max / 2 + 1) * 2 == .unlimited)
    var demand = Demand.max(2)
    demand *= 3
    #expect(demand == .max(6))
  }

  @Test func comparisonsWithDemand() {
    #expect(Demand.max(1) < .max(2))
    #expect(Demand.max(Int.max) < .unlimited)
    #expect(Demand.unlimited > .max(Int.max))
    #expect(Demand.none <= .none)
  }

  @Test func comparisonsWithInt() {
    #expect(Demand.unlimited > 5)
    #expect(Demand.unlimited >= Int.max)
    #expect(!(Demand.unlimited < 5))
    #expect(!(Demand.unlimited <= Int.max))
    #expect(Demand.unlimited != Int.max)
    #expect(Demand.max(3) == 3)
    #expect(3 == Demand.max(3))
    #expect(Demand.max(3) != 4)
    #expect(4 != Demand.max(3))
    #expect(Demand.max(3) > 2)
    #expect(Demand.max(3) >= 3)
    #expect(Demand.max(3) < 4)
    #expect(Demand.max(3) <= 3)
    #expect(2 < Demand.max(3))
    #expect(3 <= Demand.max(3))
    #expect(4 > Demand.max(3))
    #expect(3 >= Demand.max(3))
    #expect(5 < Demand.unlimited)
    #expect(!(5 > Demand.unlimited))
  }

  @Test func hashableAndCodable() throws {
    #expect(Set([Demand.max(1), .max(1), .unlimited]).count == 2)
    let encoded = try JSONEncoder().encode([Demand.max(7), .unlimited, .none])
    let decoded = try JSONDecoder().decode([Demand].self, from: encoded)
    #expect(decoded == [.max(7), .unlimited, .none])
  }

  /// As in Combine, subtracting a negative number past `Int.max` gives `.none`, and a number past
  /// `Int.max` decodes as `unlimited`.
  @Test func overflowingSubtractionAndOversizedDecoding() throws {
    #expect(Demand.max(5) - (-3) == .max(8))
    #expect(Demand.max(Int.max) - (-1) == .none)
    #expect(Demand.unlimited - (-1) == .unlimited)
    let decoded = try JSONDecoder().decode([Demand].self, from: Data("[\(UInt(Int.max) + 2), \(UInt.max)]".utf8))
    #expect(decoded == [.unlimited, .unlimited])
    #expect(throws: DecodingError.self) { try JSONDecoder().decode([Demand].self, from: Data("[-1]".utf8)) }
  }

  @Test func negativeMaxTraps() async {
    await #expect(processExitsWith: .failure) {
      _ = Subscribers.Demand.max(-1)
    }
  }

  @Test func negativeMultiplierTraps() async {
    await #expect(processExitsWith: .failure) {
      _ = Subscribers.Demand.max(1) * -1
    }
  }
}
