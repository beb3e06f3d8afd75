import Foundation
import Testing

/// `accessenabler scenario` and `accessenabler demo` as a user runs them: exit codes,
/// transcripts, and messages for misuse (SPEC §7).
@Suite struct CommandLineTests {
    private static let scenarios = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Docs/scenarios")

    private func run(_ arguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
        let executable = try #require(SandboxExecutable.url)
        return try await ChildProcessGate.shared.withGate {
            let running = try RunningCommand(executable, arguments)
            defer { running.stopForcefully() }
            let status = try await running.waitForExit(timeout: 60)
            return (status, running.output, running.errors)
        }
    }

    private func temporaryFile(_ text: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: file)
        return file
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func aScenarioWhoseExpectationsHoldExitsZeroWithItsTranscript() async throws {
        let file = Self.scenarios.appendingPathComponent("sso-silent-sign-in-at-setRequestor.json")
        let (status, output, _) = try await run(["scenario", file.path])
        #expect(status == 0)
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.first == #"{"step":0,"name":"setRequestor"}"#)
        #expect(lines.contains(#"{"callback":"setRequestorComplete","status":1}"#))
        #expect(!lines.contains { $0.hasPrefix(#"{"http""#) }, "HTTP lines only with --trace-http")
        let traced = try await run(["scenario", file.path, "--trace-http"])
        #expect(traced.status == 0)
        #expect(traced.output.contains(#"{"http":"POST /api/v2/REF30/sessions/sso/Apple","status":200}"#))
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func anUnmetExpectationExitsOne() async throws {
        let file = try temporaryFile(#"{"steps": [{"setRequestor": "REF30"}], "expect": [{"callback": "setRequestorComplete", "status": 0}]}"#)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output, errors) = try await run(["scenario", file.path])
        #expect(status == 1)
        #expect(output.contains(#"{"callback":"setRequestorComplete","status":1}"#))
        #expect(errors.contains("expectation 0 was not met"))
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func aBadScenarioFileExitsTwoNamingTheJSONPath() async throws {
        let file = try temporaryFile(#"{"steps": [{"setRequestor": "REF30"}, {"login": {"username": "alice"}}]}"#)
        defer { try? FileManager.default.removeItem(at: file) }
        let (status, output, errors) = try await run(["scenario", file.path])
        #expect(status == 2)
        #expect(output.isEmpty)
        #expect(errors.contains("$.steps[1].login.password: is required"))
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func misuseIsRefusedWithUsage() async throws {
        for arguments in [[], ["frobnicate"], ["scenario"], ["scenario", "/nonexistent/file.json"], ["demo", "--bogus"], ["sandbox", "--port", "seventy"], ["bench", "extra"]] {
            let (status, _, errors) = try await run(arguments)
            #expect(status == 2, "\(arguments)")
            #expect(!errors.isEmpty, "\(arguments)")
        }
        for command in ["demo", "scenario", "sandbox", "bench"] {
            let (status, output, _) = try await run([command, "--help"])
            #expect(status == 0)
            #expect(output.hasPrefix("Usage: accessenabler \(command)"))
        }
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func theDemoTellsTheCookbookAndExitsZero() async throws {
        let (status, output, _) = try await run(["demo"])
        #expect(status == 0)
        for expected in ["setRequestorComplete(status: 1)", "status VSA203", "status N003", "status N004", "status N005", "status VSA503", "status VSA403", "metadata: \"Apple\"", "navigateToUrl(", "Done:"] {
            #expect(output.contains(expected), "\(expected)")
        }
        let json = try await run(["demo", "--json"])
        #expect(json.status == 0)
        let lines = json.output.split(separator: "\n")
        #expect(!lines.isEmpty && lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
    }
}
