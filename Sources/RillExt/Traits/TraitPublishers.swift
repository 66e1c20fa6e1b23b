/// A namespace for publishers that keep a trait's promise: ``TraitPublishers/Single``, ``TraitPublishers/Maybe``,
/// ``TraitPublishers/PreventCancellation`` and ``TraitPublishers/ZipSingle``.
public enum TraitPublishers {}

/// A namespace for subscriptions that help you write your own trait publishers: ``TraitSubscriptions/Single`` and
/// ``TraitSubscriptions/Maybe``.
public enum TraitSubscriptions {}
