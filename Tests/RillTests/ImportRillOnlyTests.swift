// This file imports Rill and Foundation only, never FoundationNetworking: `import Rill` must be enough to use
// `URLSession` on Linux, as `import Combine` is on Apple platforms.
import Foundation
import Rill
import RillLoopbackServer
import RillTestSupport
import Testing

@Suite struct ImportRillOnlyTests {
  /// `URLSession.shared` and its data task publisher work with only `import Rill`.
  @Test func sharedURLSessionDataTaskPublisherWorks() throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let recorder = FoundationRecorder<Int>()
    let session: URLSession = .shared
    let cancellable = session.dataTaskPublisher(for: server.url("/json"))
      .map { ($0.response as? HTTPURLResponse)?.statusCode ?? -1 }
      .sink(receiveCompletion: { _ in recorder.finish() }, receiveValue: { recorder.append($0) })
    #expect(recorder.wait())
    expectEqual(recorder.values, [200])
    cancellable.cancel()
  }
}
