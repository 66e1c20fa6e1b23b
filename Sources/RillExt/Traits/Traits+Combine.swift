// The traits of Combine's operators, with CombineTraits' conditions. A publisher conforms only when every
// publisher it is built from keeps the promise, or when the operator keeps it by itself (a reduction publishes
// one value; `first` at most one).

// MARK: - SinglePublisher

extension Publishers.AllSatisfy: SinglePublisher {}
extension Publishers.Collect: SinglePublisher {}
extension Publishers.Contains: SinglePublisher {}
extension Publishers.ContainsWhere: SinglePublisher {}
extension Publishers.Count: SinglePublisher {}
extension Publishers.Reduce: SinglePublisher {}
extension Publishers.TryAllSatisfy: SinglePublisher {}
extension Publishers.TryContainsWhere: SinglePublisher {}
extension Publishers.TryReduce: SinglePublisher {}
extension Publishers.AssertNoFailure: SinglePublisher where Upstream: SinglePublisher {}
extension Publishers.Autoconnect: SinglePublisher where Upstream: SinglePublisher {}
extension Publishers.Breakpoint: SinglePublisher where Upstream: SinglePublisher {}
extension Publishers.Decode: SinglePublisher where Upstream: SinglePublisher {}
extension Publishers.Delay: SinglePublisher where Upstream: SinglePublisher {}
extension Publishers.Encode: SinglePublisher where Upstream: SinglePublisher {}
extension Publishers.HandleEvents: SinglePublisher where Upstream: SinglePublisher {}
extension Publishers.MakeConnectable: SinglePublisher where Upstream: SinglePublisher {}
extension Publishers.Map: SinglePublisher where Upstream: SinglePublisher {}
extension Publishers.MapError: SinglePublisher where Upstream: SinglePublisher {}
extension Publishers.MapKeyPath: SinglePublisher where Upstream: SinglePublisher {}
extension Publishers.MapKeyPath2: SinglePublisher where Upstream: SinglePublisher {}
extension Publishers.MapKeyPath3: SinglePublisher where Upstream: SinglePublisher {}
extension Publishers.Print: SinglePublisher where Upstream: SinglePublisher {}
extension Publishers.ReceiveOn: SinglePublisher where Upstream: SinglePublisher {}
extension Publishers.ReplaceError: SinglePublisher where Upstream: SinglePublisher {}
extension Publishers.Retry: SinglePublisher where Upstream: SinglePublisher {}
extension Publishers.SetFailureType: SinglePublisher where Upstream: SinglePublisher {}
extension Publishers.Share: SinglePublisher where Upstream: SinglePublisher {}
extension Publishers.SubscribeOn: SinglePublisher where Upstream: SinglePublisher {}
extension Publishers.Timeout: SinglePublisher where Upstream: SinglePublisher {}
extension Publishers.TryMap: SinglePublisher where Upstream: SinglePublisher {}
// `replaceEmpty` turns "nothing" into its value, so a maybe becomes a single.
extension Publishers.ReplaceEmpty: SinglePublisher where Upstream: MaybePublisher {}
extension Publishers.Catch: SinglePublisher where Upstream: SinglePublisher, NewPublisher: SinglePublisher {}
extension Publishers.CombineLatest: SinglePublisher where A: SinglePublisher, B: SinglePublisher {}
extension Publishers.CombineLatest3: SinglePublisher where A: SinglePublisher, B: SinglePublisher, C: SinglePublisher {}
extension Publishers.CombineLatest4: SinglePublisher
where A: SinglePublisher, B: SinglePublisher, C: SinglePublisher, D: SinglePublisher {}
extension Publishers.FlatMap: SinglePublisher where Upstream: SinglePublisher, NewPublisher: SinglePublisher {}
extension Publishers.SwitchToLatest: SinglePublisher where Upstream: SinglePublisher, P: SinglePublisher {}
extension Publishers.TryCatch: SinglePublisher where Upstream: SinglePublisher, NewPublisher: SinglePublisher {}
extension Publishers.Zip: SinglePublisher where A: SinglePublisher, B: SinglePublisher {}
extension Publishers.Zip3: SinglePublisher where A: SinglePublisher, B: SinglePublisher, C: SinglePublisher {}
extension Publishers.Zip4: SinglePublisher
where A: SinglePublisher, B: SinglePublisher, C: SinglePublisher, D: SinglePublisher {}

// MARK: - MaybePublisher

extension Publishers.AllSatisfy: MaybePublisher {}
extension Publishers.Collect: MaybePublisher {}
extension Publishers.Contains: MaybePublisher {}
extension Publishers.ContainsWhere: MaybePublisher {}
extension Publishers.Count: MaybePublisher {}
extension Publishers.First: MaybePublisher {}
extension Publishers.FirstWhere: MaybePublisher {}
extension Publishers.IgnoreOutput: MaybePublisher {}
extension Publishers.Last: MaybePublisher {}
extension Publishers.LastWhere: MaybePublisher {}
extension Publishers.Reduce: MaybePublisher {}
extension Publishers.TryAllSatisfy: MaybePublisher {}
extension Publishers.TryContainsWhere: MaybePublisher {}
extension Publishers.TryFirstWhere: MaybePublisher {}
extension Publishers.TryLastWhere: MaybePublisher {}
extension Publishers.TryReduce: MaybePublisher {}
extension Publishers.AssertNoFailure: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.Autoconnect: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.Breakpoint: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.CompactMap: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.Decode: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.Delay: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.Encode: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.Filter: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.HandleEvents: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.MakeConnectable: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.Map: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.MapError: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.MapKeyPath: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.MapKeyPath2: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.MapKeyPath3: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.Print: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.ReceiveOn: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.ReplaceEmpty: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.ReplaceError: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.Retry: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.SetFailureType: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.Share: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.SubscribeOn: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.Timeout: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.TryCompactMap: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.TryFilter: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.TryMap: MaybePublisher where Upstream: MaybePublisher {}
extension Publishers.Catch: MaybePublisher where Upstream: MaybePublisher, NewPublisher: MaybePublisher {}
extension Publishers.CombineLatest: MaybePublisher where A: MaybePublisher, B: MaybePublisher {}
extension Publishers.CombineLatest3: MaybePublisher where A: MaybePublisher, B: MaybePublisher, C: MaybePublisher {}
extension Publishers.CombineLatest4: MaybePublisher
where A: MaybePublisher, B: MaybePublisher, C: MaybePublisher, D: MaybePublisher {}
extension Publishers.FlatMap: MaybePublisher where Upstream: MaybePublisher, NewPublisher: MaybePublisher {}
extension Publishers.SwitchToLatest: MaybePublisher where Upstream: MaybePublisher, P: MaybePublisher {}
extension Publishers.TryCatch: MaybePublisher where Upstream: MaybePublisher, NewPublisher: MaybePublisher {}
extension Publishers.Zip: MaybePublisher where A: MaybePublisher, B: MaybePublisher {}
extension Publishers.Zip3: MaybePublisher where A: MaybePublisher, B: MaybePublisher, C: MaybePublisher {}
extension Publishers.Zip4: MaybePublisher
where A: MaybePublisher, B: MaybePublisher, C: MaybePublisher, D: MaybePublisher {}

// MARK: - ImmediatePublisher

extension Publishers.AssertNoFailure: ImmediatePublisher where Upstream: ImmediatePublisher {}
extension Publishers.Breakpoint: ImmediatePublisher where Upstream: ImmediatePublisher {}
extension Publishers.Decode: ImmediatePublisher where Upstream: ImmediatePublisher {}
extension Publishers.Encode: ImmediatePublisher where Upstream: ImmediatePublisher {}
extension Publishers.First: ImmediatePublisher where Upstream: ImmediatePublisher {}
extension Publishers.HandleEvents: ImmediatePublisher where Upstream: ImmediatePublisher {}
extension Publishers.Map: ImmediatePublisher where Upstream: ImmediatePublisher {}
extension Publishers.MapError: ImmediatePublisher where Upstream: ImmediatePublisher {}
extension Publishers.MapKeyPath: ImmediatePublisher where Upstream: ImmediatePublisher {}
extension Publishers.MapKeyPath2: ImmediatePublisher where Upstream: ImmediatePublisher {}
extension Publishers.MapKeyPath3: ImmediatePublisher where Upstream: ImmediatePublisher {}
extension Publishers.MergeMany: ImmediatePublisher where Upstream: ImmediatePublisher {}
extension Publishers.Print: ImmediatePublisher where Upstream: ImmediatePublisher {}
extension Publishers.RemoveDuplicates: ImmediatePublisher where Upstream: ImmediatePublisher {}
extension Publishers.ReplaceEmpty: ImmediatePublisher where Upstream: ImmediatePublisher {}
extension Publishers.ReplaceError: ImmediatePublisher where Upstream: ImmediatePublisher {}
extension Publishers.Retry: ImmediatePublisher where Upstream: ImmediatePublisher {}
extension Publishers.Scan: ImmediatePublisher where Upstream: ImmediatePublisher {}
extension Publishers.SetFailureType: ImmediatePublisher where Upstream: ImmediatePublisher {}
extension Publishers.TryMap: ImmediatePublisher where Upstream: ImmediatePublisher {}
extension Publishers.TryRemoveDuplicates: ImmediatePublisher where Upstream: ImmediatePublisher {}
extension Publishers.TryScan: ImmediatePublisher where Upstream: ImmediatePublisher {}
extension Publishers.Catch: ImmediatePublisher where Upstream: ImmediatePublisher, NewPublisher: ImmediatePublisher {}
extension Publishers.CombineLatest: ImmediatePublisher where A: ImmediatePublisher, B: ImmediatePublisher {}
extension Publishers.CombineLatest3: ImmediatePublisher
where A: ImmediatePublisher, B: ImmediatePublisher, C: ImmediatePublisher {}
extension Publishers.CombineLatest4: ImmediatePublisher
where A: ImmediatePublisher, B: ImmediatePublisher, C: ImmediatePublisher, D: ImmediatePublisher {}
// The prefix publishes on subscription, before the suffix is subscribed: what the suffix does cannot undo that.
extension Publishers.Concatenate: ImmediatePublisher where Prefix: ImmediatePublisher {}
extension Publishers.FlatMap: ImmediatePublisher where Upstream: ImmediatePublisher, NewPublisher: ImmediatePublisher {}
extension Publishers.Merge: ImmediatePublisher where A: ImmediatePublisher, B: ImmediatePublisher {}
extension Publishers.Merge3: ImmediatePublisher
where A: ImmediatePublisher, B: ImmediatePublisher, C: ImmediatePublisher {}
extension Publishers.Merge4: ImmediatePublisher
where A: ImmediatePublisher, B: ImmediatePublisher, C: ImmediatePublisher, D: ImmediatePublisher {}
extension Publishers.Merge5: ImmediatePublisher
where A: ImmediatePublisher, B: ImmediatePublisher, C: ImmediatePublisher, D: ImmediatePublisher, E: ImmediatePublisher
{}
extension Publishers.Merge6: ImmediatePublisher
where
  A: ImmediatePublisher,
  B: ImmediatePublisher,
  C: ImmediatePublisher,
  D: ImmediatePublisher,
  E: ImmediatePublisher,
  F: ImmediatePublisher
{}
extension Publishers.Merge7: ImmediatePublisher
where
  A: ImmediatePublisher,
  B: ImmediatePublisher,
  C: ImmediatePublisher,
  D: ImmediatePublisher,
  E: ImmediatePublisher,
  F: ImmediatePublisher,
  G: ImmediatePublisher
{}
extension Publishers.Merge8: ImmediatePublisher
where
  A: ImmediatePublisher,
  B: ImmediatePublisher,
  C: ImmediatePublisher,
  D: ImmediatePublisher,
  E: ImmediatePublisher,
  F: ImmediatePublisher,
  G: ImmediatePublisher,
  H: ImmediatePublisher
{}
extension Publishers.SwitchToLatest: ImmediatePublisher where Upstream: ImmediatePublisher, P: ImmediatePublisher {}
extension Publishers.TryCatch: ImmediatePublisher where Upstream: ImmediatePublisher, NewPublisher: ImmediatePublisher {
}
extension Publishers.Zip: ImmediatePublisher where A: ImmediatePublisher, B: ImmediatePublisher {}
extension Publishers.Zip3: ImmediatePublisher
where A: ImmediatePublisher, B: ImmediatePublisher, C: ImmediatePublisher {}
extension Publishers.Zip4: ImmediatePublisher
where A: ImmediatePublisher, B: ImmediatePublisher, C: ImmediatePublisher, D: ImmediatePublisher {}
