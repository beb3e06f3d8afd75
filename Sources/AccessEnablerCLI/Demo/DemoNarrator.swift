import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

/// Tells a running act to a person: chapter captions, what the app calls (▶), what the
/// person or the device does (•), each callback (←) and status (ⓘ), and notes (↳) for
/// what the callbacks alone do not say — an answer that came from a cache, the
/// registration code as the TV shows it, the second screen's polling, encrypted metadata.
struct DemoNarrator {
    /// Shows each REST/DCR call too.
    var traceHTTP: Bool
    /// Captions are wrapped to this width.
    var width = 100

    /// Lines that open act `number` of `count`.
    func opening(_ act: DemoAct, number: Int, of count: Int, sandbox: URL) -> [String] {
        ["", "━━ Act \(number) of \(count): \(act.title)", "   a fresh PassSandbox at \(sandbox.absoluteString)"]
    }

    /// Lines before step `index` runs: the chapter caption it opens, if any, and the step.
    func beforeStep(_ index: Int, of act: DemoAct, chapterNumber: Int?) -> [String] {
        var lines: [String] = []
        if let caption = act.captions[index], let chapterNumber {
            lines.append("")
            lines += Self.wrap(caption, width: width, first: "\(chapterNumber). ")
        }
        guard !act.quiet.contains(index) else { return lines }
        // In an act with several apps, each step says which app it is about.
        let app = act.scenario.apps.isEmpty ? "" : "[\(act.scenario.app(ofStep: index))] "
        if let narration = act.narration[index] {
            lines += Self.wrap(app + narration, width: width, first: "  • ")
        } else {
            lines.append("  ▶ \(app)\(act.scenario.steps[index].summary)")
        }
        return lines
    }

    /// Lines after `step` ran: each transcript line it produced, then the notes.
    /// `activation` is the sandbox's second-screen page; `handOver` where the SDK last
    /// sent the person to sign in (polling is told only for a second-screen code).
    func afterStep(
        _ step: Scenario.Step, produced lines: [TranscriptLine], activation: URL, handOver: CallbackRecorder.HandOver?
    ) -> [String] {
        var out: [String] = []
        for line in lines where line["step"] == nil {
            if line["http"] != nil && !traceHTTP { continue }
            out.append(HumanTranscriptFormatter.render(line))
            if let note = HumanTranscriptFormatter.note(for: line) { out.append("      ↳ \(note)") }
            if line.callback == "status", line["errorId"]?.stringValue.map({ StatusID($0) }) == .regcode,
                let code = line["details"]?.stringValue
            {
                out.append("      ↳ the TV shows: On your phone, open \(activation.absoluteString) and enter \(code)")
            }
        }
        if let note = Self.cacheNote(step, lines) { out.append("      ↳ \(note)") }
        if case .registrationCode = handOver, let note = Self.pollNote(lines) { out.append("      ↳ \(note)") }
        return out
    }

    /// Lines that close an act: what the sandbox's checklist monitor saw of the SDK — its
    /// violations, then its notices (what a server cannot be sure of).
    func checklist(_ checklist: SandboxChecklist) -> [String] {
        var lines: [String]
        if checklist.violations.isEmpty {
            lines = ["", "  ✓ Adobe's REST API V2 Checklist: the sandbox saw no violation in this act."]
        } else {
            let count = checklist.violations.count
            let violations = "\(count) violation\(count == 1 ? "" : "s")"
            lines = ["", "  ✗ Adobe's REST API V2 Checklist: the sandbox saw \(violations) in this act:"]
            for violation in checklist.violations {
                let text = "\(violation.rule) · \(violation.request): \(violation.detail)"
                lines += Self.wrap(text, width: width, first: "    ")
            }
        }
        if !checklist.notices.isEmpty {
            let count = checklist.notices.count
            lines.append("  ? and \(count) notice\(count == 1 ? "" : "s") (what a server cannot be sure of):")
            for notice in checklist.notices {
                lines += Self.wrap("\(notice.rule) · \(notice.request): \(notice.detail)", width: width, first: "    ")
            }
        }
        return lines
    }

    /// For a question the app asks (authentication, authorization, metadata, …) that made
    /// no REST call: where the answer came from.
    static func cacheNote(_ step: Scenario.Step, _ lines: [TranscriptLine]) -> String? {
        guard lines.contains(where: { $0.callback != nil }), !lines.contains(where: { $0["http"] != nil }) else {
            return nil
        }
        switch step {
        case .checkAuthentication:
            return "no REST call: checkAuthentication only looks at what the SDK has stored; it never asks the server."
        case .checkPreauthorizedResources:
            return "no REST call: answered from the SDK's preauthorization cache."
        case .getMetadata, .getSelectedProvider:
            return "no REST call: read from the profile the SDK has stored."
        case .checkAuthorization, .getAuthorization:
            return "no REST call: answered from what the SDK has stored."
        default:
            return nil
        }
    }

    /// For a step during which the SDK polled for a second-screen sign-in: how often, and
    /// whether it found the profile.
    static func pollNote(_ lines: [TranscriptLine]) -> String? {
        let polls = lines.compactMap { $0["http"]?.stringValue }.filter { $0.contains("/profiles/code/") }
        guard let path = polls.first?.split(separator: " ").last else { return nil }
        let times = polls.count == 1 ? "once" : "\(polls.count) times"
        let found = lines.contains { $0.callback == "setAuthenticationStatus" }
        let interval = Int(AccessEnablerConfiguration().secondScreenPollInterval)
        return "the SDK asked \(path) \(times) (every \(interval) s on the scenario clock): "
            + (found ? "the profile is there, the sign-in is complete." : "no profile yet, so it keeps asking.")
    }

    /// `text` in lines of at most `width` characters, broken between words; the first
    /// line starts with `first`, the others are indented to match.
    static func wrap(_ text: String, width: Int, first: String) -> [String] {
        let indent = String(repeating: " ", count: first.count)
        var lines: [String] = []
        var current = first
        var empty = true
        for word in text.split(separator: " ") {
            if !empty && current.count + 1 + word.count > width {
                lines.append(current)
                current = indent + word
            } else {
                current += (empty ? "" : " ") + word
            }
            empty = false
        }
        lines.append(current)
        return lines
    }
}
