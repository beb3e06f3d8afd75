import AccessEnablerScenarios
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A scenario run's temporary storage (client credentials, access tokens) never outlives
/// it: removed at the end, on Ctrl-C, and — after a kill nobody can catch — by the next run.
@Suite struct ScenarioScratchTests {
    static func scratchDirectories(of pid: Int32) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
        return names.filter { $0.hasPrefix("accessenabler-scenario-\(pid)-") }
    }

    /// A scenario that waits on a slow sandbox for half a minute (six requests that each
    /// time out after the runner's 5 s), so it can be interrupted mid-run.
    static func slowScenario() throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("slow-scenario-\(UUID().uuidString).json")
        let slowSteps = Array(repeating: #"{"setRequestor": "REF30"}"#, count: 6).joined(separator: ", ")
        let text = #"{"steps": [{"setRequestor": "REF30"}, {"fault": {"endpoint": "profiles", "latency": 30}}, "# + slowSteps + "]}"
        try Data(text.utf8).write(to: file)
        return file
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func ctrlCRemovesTheRunsStorage() async throws {
        let executable = try #require(SandboxExecutable.url)
        let file = try Self.slowScenario()
        defer { try? FileManager.default.removeItem(at: file) }
        try await ChildProcessGate.shared.withGate {
            let running = try RunningCommand(executable, ["scenario", file.path])
            defer { running.stopForcefully() }
            let pid = running.processIdentifier
            // Wait until the run has made its storage (its last steps then wait on the slow
            // sandbox).
            let deadline = Date().addingTimeInterval(SanitizerTiming.scaled(300))
            while Self.scratchDirectories(of: pid).isEmpty, running.isRunning, Date() < deadline {
                try await Task.sleep(nanoseconds: 10_000_000)
            }
            #expect(!Self.scratchDirectories(of: pid).isEmpty, "the run's storage exists while it runs")
            running.interrupt()
            let status = try await running.waitForExit(timeout: SanitizerTiming.scaled(300))
            #expect(status == 130)
            #expect(Self.scratchDirectories(of: pid).isEmpty)
        }
    }

    @Test func aRunRemovesTheStorageOfRunsThatWereKilled() async throws {
        // A directory left by a process that no longer exists.
        var deadPID: Int32 = 4_000_000
        while kill(deadPID, 0) == 0 || errno != ESRCH { deadPID += 1 }
        let orphan = FileManager.default.temporaryDirectory.appendingPathComponent("accessenabler-scenario-\(deadPID)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: orphan, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: orphan.appendingPathComponent("client.json"))
        let runner = ScenarioRunner(scenario: Scenario(), wire: .inProcess)
        try runner.start()
        let mine = try #require(runner.storageDirectory)
        #expect(ScenarioScratch.directoriesInUse.contains(mine))
        runner.stop()
        #expect(!FileManager.default.fileExists(atPath: orphan.path))
        #expect(!FileManager.default.fileExists(atPath: mine.path))
        #expect(!ScenarioScratch.directoriesInUse.contains(mine))
    }
}
