import Foundation
// Runs the server-shaped load (RillWorkloads/ServerLoad.swift) against Rill and OpenCombine in one process, in
// alternating rounds, and prints the CPU time (user + system) each spends per delivered event:
//   rill-server-load [clients=200] [events per second=2000] [seconds=5] [rounds=3]
// SERVER_LOAD_ORDER=opencombine-first runs OpenCombine's round first in each pair, and SERVER_LOAD_ORDER=rill-only runs
// Rill's rounds alone, to tell an effect of the order or of the other framework apart from Rill's own.
import OpenCombineWorkloads
import RillWorkloads

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments.dropFirst().compactMap { Double($0) }
let clients = arguments.count > 0 ? Int(arguments[0]) : 200
let rate = arguments.count > 1 ? Int(arguments[1]) : 2000
let seconds = arguments.count > 2 ? arguments[2] : 5
let rounds = arguments.count > 3 ? Int(arguments[3]) : 3

print("\(clients) clients, \(rate) events/s on the bus for \(seconds) s, \(rounds) rounds")
print("framework    | sent    | delivered | summaries | CPU s  | wall s | CPU µs per delivered event")
var perDelivery: [String: [Double]] = [:]
/// One run's line of the table.
func report(_ framework: String, sent: Int, delivered: Int, summaries: Int, cpu: Double, wall: Double) {
  let perEvent = cpu / Double(max(delivered, 1))
  perDelivery[framework, default: []].append(perEvent)
  let cells = [
    framework.padding(toLength: 12, withPad: " ", startingAt: 0),
    String(sent).padding(toLength: 7, withPad: " ", startingAt: 0),
    String(delivered).padding(toLength: 9, withPad: " ", startingAt: 0),
    String(summaries).padding(toLength: 9, withPad: " ", startingAt: 0),
    String(format: "%6.2f", cpu / 1e6),
    String(format: "%6.2f", wall),
    String(format: "%.2f", perEvent),
  ]
  print(cells.joined(separator: " | "))
}

/// Runs one round of `framework`'s load and reports it.
func runRound(_ framework: String) {
  let result: (sent: Int, delivered: Int, summaries: Int, cpu: Double, wall: Double)
  if framework == "Rill" {
    let run = RillWorkloads.ServerLoad.run(clients: clients, rate: rate, seconds: seconds)
    result = (run.sent, run.delivered, run.summaries, run.cpuMicroseconds, run.wallSeconds)
  } else {
    let run = OpenCombineWorkloads.ServerLoad.run(clients: clients, rate: rate, seconds: seconds)
    result = (run.sent, run.delivered, run.summaries, run.cpuMicroseconds, run.wallSeconds)
  }
  report(
    framework,
    sent: result.sent,
    delivered: result.delivered,
    summaries: result.summaries,
    cpu: result.cpu,
    wall: result.wall
  )
}

let order: [String]
switch ProcessInfo.processInfo.environment["SERVER_LOAD_ORDER"] {
case "opencombine-first": order = ["OpenCombine", "Rill"]
case "rill-only": order = ["Rill"]
default: order = ["Rill", "OpenCombine"]
}
for _ in 0..<rounds {
  for framework in order { runRound(framework) }
}
guard order.count == 2 else { exit(0) }
let rill = perDelivery["Rill", default: []].sorted()
let openCombine = perDelivery["OpenCombine", default: []].sorted()
let ratios = zip(perDelivery["Rill", default: []], perDelivery["OpenCombine", default: []]).map { $0 / $1 }.sorted()
print(
  String(
    format: "median CPU per delivered event: Rill %.2f µs, OpenCombine %.2f µs; Rill/OpenCombine per round %@",
    rill[rill.count / 2],
    openCombine[openCombine.count / 2],
    ratios.map { String(format: "%.2f", $0) }.joined(separator: ", ")
  )
)
