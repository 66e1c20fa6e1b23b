// Combine's API and its Foundation integrations, without FoundationNetworking: `import RillFoundation` gives the
// Dispatch, RunLoop and OperationQueue schedulers, `Timer`, `NotificationCenter` and the JSON coders, and links
// neither FoundationNetworking nor libcurl. `Rill` re-exports this module and adds URLSession's publisher.
@_exported public import RillCore
