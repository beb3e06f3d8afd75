/// A word Adobe Pass sends from a documented set that may grow: `actionName`,
/// `actionType`, `reasonType`, a decision's `source`, an enhanced error's `action`.
///
/// Each vocabulary is an enum whose known words are cases and whose `unknown` case keeps
/// any other spelling as received. Code that reacts to a word switches over the enum with
/// no `default`, so when a word is added here the compiler lists every place that must
/// decide what it means; a word the server invents before this SDK knows it still decodes
/// and reaches the place that handles `unknown`.
///
/// Not `RawRepresentable`: every spelling has a value, so the initializer cannot fail.
protocol WireVocabulary: Hashable, Sendable, Decodable, CustomStringConvertible {
    /// The word as it travels on the wire.
    var rawValue: String { get }
    /// Every known word, each as its case: a list kept by hand (an enum with a payload case
    /// cannot be `CaseIterable`), guarded by `WireVocabularyTests`, which reads each
    /// vocabulary's `rawValue` switch (complete, since it has no `default`) and fails when a
    /// case it names is missing here.
    static var known: [Self] { get }
    /// A word this SDK does not know, kept as sent.
    static func unknown(_ spelling: String) -> Self
}

extension WireVocabulary {
    /// The known case spelled `rawValue`, or `unknown(rawValue)`. Spellings match exactly,
    /// as the server sends them.
    init(rawValue: String) {
        self = Self.known.first { $0.rawValue == rawValue } ?? Self.unknown(rawValue)
    }

    init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// The word as it travels on the wire, for messages.
    var description: String { rawValue }
}
