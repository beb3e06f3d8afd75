/// One line of Adobe's REST API V2 Checklist, and how the monitor covers it: the rules that
/// judge it, and what of it a server cannot see (storage, the user experience, playback).
public struct SandboxChecklistCoverage: Sendable, Equatable {
    /// The checklist's phase (`Registration Phase`, `Parameters and Headers`, …).
    public var phase: String
    /// The line: its row and what the row asks.
    public var line: String
    /// Whether the line is among the mandatory requirements or the recommended practices
    /// (never `notice`).
    public var level: SandboxChecklistLevel
    /// The ids of the rules that judge the line, in the rules' order; empty when none can.
    public var rules: [String]
    /// What of the line a server cannot see, and so the monitor does not judge: why no rule
    /// judges it, or which part the rules leave out. `nil` when the rules judge all of it.
    public var unseen: String?

    /// Describes how a line is covered.
    public init(phase: String, line: String, level: SandboxChecklistLevel, rules: [String], unseen: String?) {
        self.phase = phase
        self.line = line
        self.level = level
        self.rules = rules
        self.unseen = unseen
    }
}
