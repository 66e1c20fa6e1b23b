// A service's use of Combine without networking: a burst of events, debounced on a dispatch queue, with a
// `Timer`-free clock. It imports RillFoundation alone, so it links neither FoundationNetworking nor libcurl (CI
// checks with `ldd`); `import Rill` would link both for URLSession's publisher.
import Dispatch
import Foundation
import RillFoundation

let queue = DispatchQueue(label: "rill-foundation-example")
let settled = DispatchSemaphore(value: 0)
let edits = PassthroughSubject<String, Never>()
let cancellable =
  edits
  .debounce(for: .milliseconds(20), scheduler: queue)
  .encode(encoder: JSONEncoder())
  .sink(
    receiveCompletion: { _ in },
    receiveValue: { data in
      print("saved \(String(decoding: data, as: UTF8.self))")
      settled.signal()
    }
  )
for draft in ["h", "he", "hello"] { edits.send(draft) }
settled.wait()
cancellable.cancel()
