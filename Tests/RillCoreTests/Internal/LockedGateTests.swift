import RillTestSupport
import Testing

@testable import RillCore

@Suite struct LockedGateTests {
  /// A gate is read at `Gated.gateOffset` from its lock's header, so that must be where Swift lays it out, whatever
  /// the state before it.
  @Test func theGateIsWhereTheHeaderKeepsIt() {
    #expect(MemoryLayout<Gated<Void>>.offset(of: \.gate) == Gated<Void>.gateOffset)
    #expect(MemoryLayout<Gated<Int8>>.offset(of: \.gate) == Gated<Int8>.gateOffset)
    #expect(MemoryLayout<Gated<(Int8, String, [Int])>>.offset(of: \.gate) == Gated<(Int8, String, [Int])>.gateOffset)
    #expect(MemoryLayout<Gated<SIMD4<Double>>>.offset(of: \.gate) == Gated<SIMD4<Double>>.gateOffset)
  }

  @Test func aGateStartsAtZeroAndIsIndependentOfTheState() {
    let locked = GatedLocked([1, 2])
    expectEqual(locked.gate.load(ordering: .relaxed), 0)
    locked.gate.store(7, ordering: .releasing)
    locked.withLock { $0.append(3) }
    expectEqual(locked.gate.load(ordering: .acquiring), 7)
    #expect(locked.withLock { $0 } == [1, 2, 3])
  }

  @Test func aGateExchangesComparesAndSetsBits() {
    let gate = DeliveryLock().gate
    expectEqual(gate.exchange(1, ordering: .acquiringAndReleasing), 0)
    #expect(gate.compareExchange(expected: 0, desired: 5, ordering: .acquiringAndReleasing) == (false, 1))
    #expect(gate.compareExchange(expected: 1, desired: 4, ordering: .acquiringAndReleasing) == (true, 1))
    expectEqual(gate.loadThenBitwiseOr(with: 2, ordering: .releasing), 4)
    expectEqual(gate.load(ordering: .acquiring), 6)
  }

  @Test func eachDeliveryLockHasItsOwnGate() {
    let first = DeliveryLock()
    let second = DeliveryLock()
    first.gate.store(3, ordering: .relaxed)
    expectEqual(second.gate.load(ordering: .relaxed), 0)
    #expect(first.withLock { first.gate.load(ordering: .relaxed) } == 3)
  }

  @Test(.tags(.stress)) func bitsSetFromManyThreadsAllStay() {
    let gate = DeliveryLock().gate
    let shared = StressUnchecked(gate)
    #expect(StressThreads.run(8) { index in _ = shared.value.loadThenBitwiseOr(with: 1 << index, ordering: .relaxed) })
    expectEqual(gate.load(ordering: .acquiring), 0xFF)
  }
}
