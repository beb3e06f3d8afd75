import Foundation

/// How the monitor reports a rule's findings: as a violation of one of Adobe's REST API V2
/// Checklist's "Mandatory Requirements" or "Recommended Practices", which a server sees for
/// sure, or as a notice, which it cannot be sure of.
public enum SandboxChecklistLevel: String, Sendable, CaseIterable {
    /// A line of the checklist's mandatory requirements, broken for sure.
    case mandatory
    /// A line of the checklist's recommended practices, broken for sure.
    case recommended
    /// The requests look like a break of a checklist line (of either kind), but a person, a
    /// platform or another device could look the same to a server: worth a look, never
    /// counted as a violation.
    case notice
}

/// One rule of PassSandbox's checklist monitor: the line of Adobe's REST API V2 Checklist it
/// checks, how it reports what it finds, what it reads, and what it cannot tell apart.
public struct SandboxChecklistRule: Sendable, Equatable {
    /// The rule's identifier (`configuration-while-authenticated`), as the JSON answer of
    /// `GET /checklist` and the scenario transcript name it.
    public var id: String
    /// The checklist line the rule checks: its phase, its row and what the row asks.
    public var line: String
    /// Mandatory or recommended violation, or notice.
    public var level: SandboxChecklistLevel
    /// What the rule reads to judge.
    public var evidence: SandboxChecklistEvidence
    /// What a server cannot see or tell apart on this line, in a sentence: why a notice is
    /// not a violation, or what the rule forgives.
    public var limits: String

    /// Describes a rule.
    public init(
        id: String, line: String, level: SandboxChecklistLevel, evidence: SandboxChecklistEvidence, limits: String
    ) {
        self.id = id
        self.line = line
        self.level = level
        self.evidence = evidence
        self.limits = limits
    }
}

/// A place where a client broke a checklist line (a violation), or seems to have (a notice):
/// which rule, on which device, by which request, when, and why.
public struct SandboxChecklistViolation: Sendable, Equatable {
    /// The ``SandboxChecklistRule/id`` of the rule broken.
    public var rule: String
    /// The device: the Base64 identifier of its `AP-Device-Identifier` header, or, for a
    /// request without one, the device its client credentials, access token or code were
    /// last used on (``unknownDevice`` when nothing tells).
    public var device: String
    /// The request that broke the line: method and path (`GET /api/v2/REF30/configuration`).
    public var request: String
    /// When the sandbox answered that request, on the sandbox clock.
    public var at: Date
    /// Why it breaks the line, in a sentence.
    public var detail: String

    /// The ``device`` of a request nothing attributes to a device.
    public static let unknownDevice = "unknown device"

    /// Records a violation.
    public init(rule: String, device: String, request: String, at: Date, detail: String) {
        self.rule = rule
        self.device = device
        self.request = request
        self.at = at
        self.detail = detail
    }
}

/// What the checklist monitor found: every rule it checks, every violation and notice seen
/// so far (in the order of the requests that broke the lines), and how every line of Adobe's
/// checklist is covered. ``PassSandbox/checklist`` makes one; `GET /checklist` serves it as
/// a page, or as JSON to a client that asks for `application/json`.
public struct SandboxChecklist: Sendable, Equatable {
    /// Every rule the monitor checks, in the checklist's order.
    public var rules: [SandboxChecklistRule]
    /// Every violation (the findings of the `mandatory` and `recommended` rules), oldest first.
    public var violations: [SandboxChecklistViolation]
    /// Every notice (the findings of the `notice` rules), oldest first.
    public var notices: [SandboxChecklistViolation]
    /// Every line of Adobe's checklist, with the rules that judge it or why none can.
    public var coverage: [SandboxChecklistCoverage]

    /// A report of `rules`, the `violations` and `notices` found, and the `coverage` of
    /// Adobe's checklist.
    public init(
        rules: [SandboxChecklistRule], violations: [SandboxChecklistViolation],
        notices: [SandboxChecklistViolation] = [],
        coverage: [SandboxChecklistCoverage] = []
    ) {
        self.rules = rules
        self.violations = violations
        self.notices = notices
        self.coverage = coverage
    }

    /// A report of `rules` whose `findings` are split into violations and notices by the
    /// level of the rule that found each.
    init(rules: [SandboxChecklistRule], findings: [SandboxChecklistViolation], coverage: [SandboxChecklistCoverage]) {
        let notices = Set(rules.filter { $0.level == .notice }.map(\.id))
        self.init(
            rules: rules, violations: findings.filter { !notices.contains($0.rule) },
            notices: findings.filter { notices.contains($0.rule) },
            coverage: coverage)
    }

    /// The violations of `rule` (an id).
    public func violations(of rule: String) -> [SandboxChecklistViolation] {
        violations.filter { $0.rule == rule }
    }

    /// The notices of `rule` (an id).
    public func notices(of rule: String) -> [SandboxChecklistViolation] {
        notices.filter { $0.rule == rule }
    }

    /// The violations of the `mandatory` rules: what `accessenabler sandbox
    /// --checklist-strict` fails on.
    public var mandatoryViolations: [SandboxChecklistViolation] {
        let mandatory = Set(rules.filter { $0.level == .mandatory }.map(\.id))
        return violations.filter { mandatory.contains($0.rule) }
    }

    /// The ids of the rules broken at least once (violations only), in the rules' order.
    public var brokenRules: [String] {
        let broken = Set(violations.map(\.rule))
        return rules.map(\.id).filter(broken.contains)
    }

    /// The ids of the rules with at least one notice, in the rules' order.
    public var noticedRules: [String] {
        let noticed = Set(notices.map(\.rule))
        return rules.map(\.id).filter(noticed.contains)
    }

    /// The JSON answer of `GET /checklist`:
    /// `{"rules":[{"id","line","level","evidence","limits"}],
    /// "violations":[{"rule","device","request","at","detail"}], "notices":[…the same…],
    /// "coverage":[{"phase","line","level","rules","unseen"}]}`, `at` in ISO 8601 with
    /// milliseconds (UTC), `unseen` `null` for a line the rules judge whole.
    public var json: String {
        let rules = self.rules.map { rule in
            SandboxJSON.object(
                ("id", .string(rule.id)), ("line", .string(rule.line)), ("level", .string(rule.level.rawValue)),
                ("evidence", .string(rule.evidence.rawValue)), ("limits", .string(rule.limits)))
        }
        let findings = { (list: [SandboxChecklistViolation]) in
            SandboxJSON.array(
                list.map { violation in
                    SandboxJSON.object(
                        ("rule", .string(violation.rule)), ("device", .string(violation.device)),
                        ("request", .string(violation.request)),
                        ("at", .string(Self.timestamp(violation.at))), ("detail", .string(violation.detail)))
                })
        }
        let coverage = self.coverage.map { line in
            SandboxJSON.object(
                ("phase", .string(line.phase)), ("line", .string(line.line)), ("level", .string(line.level.rawValue)),
                ("rules", .array(line.rules.map(SandboxJSON.string))),
                ("unseen", line.unseen.map(SandboxJSON.string) ?? .null))
        }
        let object = SandboxJSON.object(
            ("rules", .array(rules)), ("violations", findings(violations)), ("notices", findings(notices)),
            ("coverage", .array(coverage)))
        return String(decoding: object.bytes, as: UTF8.self)
    }

    /// `2026-01-01T00:00:03.250Z`: a moment as the checklist's answers write it (UTC, milliseconds).
    public static func timestamp(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1_000).rounded(.down)
        guard milliseconds.isFinite, abs(milliseconds) < 1e15 else { return "unknown time" }
        let whole = Int64(milliseconds)
        let fraction = ((whole % 1_000) + 1_000) % 1_000
        let second = SandboxEngine.isoTime(Date(timeIntervalSince1970: TimeInterval(whole - fraction) / 1_000))
        let digits = String(fraction)
        return second.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }
}
