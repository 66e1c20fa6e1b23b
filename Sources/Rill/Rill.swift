@_exported public import RillCore
// The Foundation integrations that need no networking: the schedulers, Timer, NotificationCenter, the JSON coders.
@_exported public import RillFoundation

// On Linux, URLSession and its types live in FoundationNetworking; re-exporting it lets `import Rill` alone
// reach `URLSession.shared` and `dataTaskPublisher`, as `import Combine` with Foundation does on Apple platforms.
#if canImport(FoundationNetworking)
@_exported public import FoundationNetworking
#endif
