import AccessEnablerScenarios
import Foundation
import Testing

@testable import AccessEnabler

#if canImport(Glibc)
import Glibc
#endif

/// A scenario run's temporary storage (client credentials, access tokens) never outlives
/// it: removed at the end, on Ctrl-C, and — after a kill nobody can catch — by the next run.
@Suite struct ScenarioScratchTests {
    static func scratchDirectories(of pid: Int32) -> [String] {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
        return names.filter { $0.hasPrefix("accessenabler-scenario-\(pid)-") }
    }

    /// A scenario that waits on a slow sandbox for half a minute (six requests that each
    /// time out after the runner's 5 s), so it can be interrupted mid-run.
    static func slowScenario() throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "slow-scenario-\(UUID().uuidString).json")
        let slowSteps = Array(repeating: #"{"setRequestor": "REF30"}"#, count: 6).joined(separator: ", ")
        let text =
            #"{"steps": [{"setRequestor": "REF30"}, {"fault": {"endpoint": "profiles", "latency": 30}}, "# + slowSteps
            + "]}"
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

    @Test(
        "A stopped run's storage stays removed: what its AccessEnabler still hands to the disk lands before the removal"
    )
    func aLateWriteDoesNotRecreateAStoppedRunsStorage() async throws {
        let other = FileManager.default.temporaryDirectory.appendingPathComponent(
            "scenario-scratch-other-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: other) }
        let recreated = NSLockedValue<Bool?>(nil)
        // All on a thread of its own, which the held storage thread does not wait for: while
        // it is held, other tests' cooperative threads may wait for it.
        await Self.offThePool {
            // The storage thread is held in another store's data sync, so the run's new
            // device claims its identity on it only after the run is stopped.
            let (entered, mayGoOn) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
            let first = NSLockedValue(true)
            var system = StorageSystem.posix
            let posix = StorageSystem.posix
            system.syncFiles = { (urls) throws(StorageIOError) in
                if first.withLock({ isFirst in
                    defer { isFirst = false }
                    return isFirst
                }) {
                    entered.signal()
                    mayGoOn.wait()
                }
                try posix.syncFiles(urls)
            }
            let busy = TokenStore(
                directory: other, softwareStatement: "STATEMENT", integrityCheck: .INTEGRITY_CHECK_NONE,
                writeBehind: true, system: system,
                now: { Date() })
            busy.setAccessToken(StoredAccessToken(value: "token", expiresAt: Date() + 3600))
            busy.commitPendingWrites()
            entered.wait()
            // Let go of the storage thread in a moment, whatever this thread does meanwhile.
            Thread.detachNewThread {
                usleep(200_000)
                mayGoOn.signal()
            }
            let runner = ScenarioRunner(scenario: Scenario(), wire: .inProcess)
            guard (try? runner.start()) != nil, let mine = runner.storageDirectory else { return }
            runner.stop()
            StorageSyncThread.shared.waitUntilEverythingIsWritten(timeout: 60)
            recreated.withLock { $0 = FileManager.default.fileExists(atPath: mine.path) }
        }
        #expect(recreated.withLock { $0 } == false, "the run started, stopped, and nothing recreated its storage")
    }

    /// Runs `work`, which blocks, on a thread of its own rather than one of Swift's few
    /// cooperative threads.
    static func offThePool(_ work: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                work()
                continuation.resume()
            }
        }
    }

    @Test func aRunRemovesTheStorageOfRunsThatWereKilled() async throws {
        // A directory left by a process that no longer exists.
        var deadPID: Int32 = 4_000_000
        while kill(deadPID, 0) == 0 || errno != ESRCH { deadPID += 1 }
        let orphan = FileManager.default.temporaryDirectory.appendingPathComponent(
            "accessenabler-scenario-\(deadPID)-\(UUID().uuidString)")
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
