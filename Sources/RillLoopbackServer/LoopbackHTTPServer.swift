import Dispatch
package import Foundation
import RillCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 for the URLSession tests and rill-demo: one request per connection.
///
/// Routes: `/json` answers `{"valid":true}`, `/slow` answers `{"valid":false}` after `slowDelay`, `/status/<n>`
/// answers with that status, `/echo/<word>` answers `{"value":"<word>"}`, anything else is a 404.
package final class LoopbackHTTPServer: @unchecked Sendable {
  // SAFETY: `listener` and `port` are set in `init` and never change; the rest is in `state`.
  package let port: UInt16
  private let listener: Int32
  private let slowDelay: Double
  /// The paths requested so far, in arrival order, and whether the server has stopped.
  private let state = Locked((requestPaths: [String](), isStopped: false))

  /// The paths requested so far, in arrival order.
  package var requests: [String] {
    state.withLock { $0.requestPaths }
  }

  package init(slowDelay: Double = 3) throws {
    self.slowDelay = slowDelay
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, listen(fd, 64) == 0 else {
      close(fd)
      throw POSIXError(.EADDRINUSE)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    listener = fd
    port = UInt16(bigEndian: address.sin_port)
    let thread = Thread { [self] in acceptLoop() }
    thread.start()
  }

  /// A URL on this server.
  package func url(_ path: String) -> URL {
    URL(string: "http://127.0.0.1:\(port)\(path)")!
  }

  /// A URL on a loopback port where nothing listens, so connecting is refused.
  package static func refusedURL() -> URL {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    _ = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    close(fd)
    return URL(string: "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))/json")!
  }

  /// Closes the listening socket, once: a second close could hit a descriptor another server reuses.
  package func stop() {
    let mustClose = state.withLock { state in
      defer { state.isStopped = true }
      return !state.isStopped
    }
    guard mustClose else { return }
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
  }

  deinit {
    stop()
  }

  private func acceptLoop() {
    while true {
      let client = accept(listener, nil, nil)
      guard client >= 0 else { return }
      DispatchQueue.global().async { [self] in handle(client) }
    }
  }

  private func handle(_ client: Int32) {
    defer { close(client) }
    var received = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !received.containsHeaderEnd {
      let count = read(client, &buffer, buffer.count)
      guard count > 0 else { return }
      received += buffer[0..<count]
    }
    let head = String(decoding: received, as: UTF8.self)
    let path = head.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
    state.withLock { $0.requestPaths.append(path) }
    let (status, body): (Int, String)
    switch path {
    case "/json":
      (status, body) = (200, #"{"valid":true}"#)
    case "/slow":
      Thread.sleep(forTimeInterval: slowDelay)
      (status, body) = (200, #"{"valid":false}"#)
    case let path where path.hasPrefix("/status/"):
      (status, body) = (Int(path.dropFirst(8)) ?? 500, "{}")
    case let path where path.hasPrefix("/echo/"):
      (status, body) = (200, "{\"value\":\"\(path.dropFirst(6))\"}")
    default:
      (status, body) = (404, #"{"error":"not found"}"#)
    }
    let payload = Array(body.utf8)
    let response =
      "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Status")\r\nContent-Type: application/json\r\n"
      + "Content-Length: \(payload.count)\r\nConnection: close\r\n\r\n"
    let bytes = Array(response.utf8) + payload
    bytes.withUnsafeBytes { raw in
      var offset = 0
      while offset < raw.count {
        let written = send(client, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
        guard written > 0 else { return }
        offset += written
      }
    }
  }
}

extension [UInt8] {
  fileprivate var containsHeaderEnd: Bool {
    guard count >= 4 else { return false }
    for index in 0...(count - 4)
    where self[index] == 13 && self[index + 1] == 10 && self[index + 2] == 13 && self[index + 3] == 10 {
      return true
    }
    return false
  }
}
