// One import for code that runs on Apple platforms and elsewhere: `import RillShim` is Apple's Combine where it
// exists, and Rill, with its Foundation integrations (the Dispatch, RunLoop and OperationQueue schedulers,
// URLSession, NotificationCenter, Timer and the JSON coders), everywhere else.
#if canImport(Combine)
@_exported public import Combine
#else
@_exported public import Rill
#endif
