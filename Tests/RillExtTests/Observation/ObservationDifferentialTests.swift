import Observation
import RillExt
import RillTestSupport
import RillTesting
import Testing

/// RillExt also has a `TestScheduler`, combine-schedulers' generic one; these tests use RillTesting's.
private typealias TestScheduler = RillTesting.TestScheduler

/// The publisher against what users write by hand, over random scripts of mutations and scheduler runs.
///
/// The hand-written loop reads the property with `withObservationTracking` and schedules its next read on each
/// change; both are also checked against a plain model of the documented behaviour. Each script is a pure function
/// of its seed: a failure names the seed, and `script(seed:)` replays it.
@Suite struct ObservationDifferentialTests {
  /// SplitMix64, so that a seed gives the same script on every platform.
  struct Generator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  enum Step: CustomStringConvertible {
    /// `count = value`, often equal to the current value, which is no change.
    case setCount(Int)
    /// A change of another property, which the publisher does not track.
    case setName(String)
    /// The scheduler runs what is due.
    case run

    var description: String {
      switch self {
      case .setCount(let value): "count = \(value)"
      case .setName(let name): "name = \(name)"
      case .run: "run"
      }
    }
  }

  static func script(seed: UInt64) -> [Step] {
    var generator = Generator(state: seed)
    return (0..<Int.random(in: 1...40, using: &generator)).map { _ in
      switch Int.random(in: 0..<10, using: &generator) {
      case 0..<5: .setCount(Int.random(in: 0...3, using: &generator))
      case 5: .setName(["a", "b"].randomElement(using: &generator)!)
      default: .run
      }
    }
  }

  /// What the documentation promises: the initial value, then at each run after an effective change, the value
  /// then current.
  static func modelled(_ script: [Step]) -> [Int] {
    var values = [0]
    var current = 0
    var changed = false
    for step in script {
      switch step {
      case .setCount(let value):
        if value != current { changed = true }
        current = value
      case .setName: break
      case .run:
        if changed { values.append(current) }
        changed = false
      }
    }
    return values
  }

  @Test(arguments: 0..<20)
  func agreesWithAHandWrittenLoopAndTheModel(batch: Int) {
    for index in 0..<50 {
      let seed = UInt64(batch * 50 + index) &* 0x2545_F491_4F6C_DD1D
      let script = Self.script(seed: seed)
      let scheduler = TestScheduler()
      let model = CounterModel()
      let subscriber = TestSubscriber<Int, Never>()
      model.publisher(for: \.count, scheduler: scheduler).subscribe(subscriber)
      let loop = HandWrittenObservationLoop(model: model, scheduler: scheduler)
      for step in script {
        switch step {
        case .setCount(let value): model.count = value
        case .setName(let name): model.name = name
        case .run: scheduler.advance()
        }
      }
      let expected = Self.modelled(script)
      expectEqual(subscriber.values, loop.values, "seed \(seed): \(script)")
      expectEqual(subscriber.values, expected, "seed \(seed): \(script)")
      subscriber.cancel()
    }
  }
}
