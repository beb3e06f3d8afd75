import Foundation
import Testing

/// Where the engine's machine meets its inner authentication machine, read from the sources:
/// the engine's machine forwards calls and raw answers through one door
/// (`EngineStateMachine.forward`) and reads nothing of the inner machine but whether its queue
/// must wait; the folder stays small enough to read; the sentences a person reads are
/// `StatusSentences`', not the transitions'.
@Suite struct StateMachineBoundaryTests {
    /// The Swift files of `StateMachines/`, by path under `Sources/AccessEnabler`.
    static func stateMachineFiles() throws -> [(path: String, source: String)] {
        try ArchitectureFolderDirectionTests.files().filter { $0.path.hasPrefix("StateMachines/") }
    }

    @Test func theEngineMachineReadsNothingOfTheAuthenticationMachineButWhetherItsQueueWaits() throws {
        let outer = try Self.stateMachineFiles().filter { !$0.path.hasPrefix("StateMachines/Authentication/") }
        #expect(!outer.isEmpty)
        let access = try NSRegularExpression(pattern: #"\bauthentication\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)"#)
        var reads: [String] = []
        for file in outer {
            let code = ArchitectureFolderDirectionTests.code(file.source)
            let range = NSRange(code.startIndex..., in: code)
            for match in access.matches(in: code, range: range) {
                guard let member = Range(match.range(at: 1), in: code).map({ String(code[$0]) }),
                    member != "awaitsServer"
                else { continue }
                reads.append("\(file.path): authentication.\(member)")
            }
        }
        #expect(reads.isEmpty, "forward the event to the authentication machine instead of reading it: \(reads)")
    }

    @Test func noFileInStateMachinesIsOver500Lines() throws {
        let long = try Self.stateMachineFiles().compactMap { file -> String? in
            let lines = file.source.split(separator: "\n", omittingEmptySubsequences: false).count
            return lines > 500 ? "\(file.path): \(lines) lines" : nil
        }
        #expect(long.isEmpty, "split these by role: \(long)")
    }

    @Test func theStateMachinesWriteNoSentenceOfTheirOwn() throws {
        // A status's message or a failure's description written as a literal in a transition.
        let literal = try NSRegularExpression(pattern: #"\b(?:message|description):\s*""#)
        let written = try Self.stateMachineFiles().filter { file in
            let source = file.source
            return literal.firstMatch(in: source, range: NSRange(source.startIndex..., in: source)) != nil
        }.map(\.path)
        #expect(written.isEmpty, "move the sentence to StatusSentences: \(written)")
    }
}
