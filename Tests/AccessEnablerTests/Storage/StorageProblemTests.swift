import Foundation
import Testing

@testable import AccessEnabler

#if canImport(Glibc)
import Glibc
#endif

/// Failed writes are told, not swallowed: a directory in the way, a read-only directory, a
/// full disk, an unusable storage directory. And a store that cannot keep its identity
/// still sends the same device identifier at every launch.
@Suite("Storage: problems are reported")
struct StorageProblemTests {
    /// Collects what a store reports.
    final class Reports: @unchecked Sendable {
        private let lock = NSLock()
        private var problems: [StorageProblem] = []
        var handler: @Sendable (StorageProblem) -> Void {
            { [self] problem in lock.withLock { problems.append(problem) } }
        }
        var all: [StorageProblem] { lock.withLock { problems } }
    }

    /// The real file operations, except that writes (and, when asked, deletions) fail with
    /// `code`, and a new file's obstacle is `code` too.
    static func failing(_ code: Int32, machineID: String = "machine-1") -> StorageSystem {
        var system = StorageSystem.posix
        system.writeTemporary = { (_, url) throws(StorageIOError) in
            throw StorageIOError(operation: "write", path: url.path, code: code)
        }
        system.creationObstacle = { url in StorageIOError(operation: "create", path: url.path, code: code) }
        system.machineID = { machineID }
        return system
    }

    private func open(
        _ scratch: StorageScratch, _ system: StorageSystem = .posix, reports: Reports, writeBehind: Bool = false
    ) -> TokenStore {
        TokenStore(
            directory: scratch.root, softwareStatement: scratch.statement, integrityCheck: .INTEGRITY_CHECK_NONE,
            writeBehind: writeBehind, system: system, onProblem: reports.handler, now: { StorageScratch.start })
    }

    @Test("A directory where a file should be is reported with its path, the value stays in memory")
    func directoryInTheWay() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let reports = Reports()
        let store = open(scratch, reports: reports)
        try FileManager.default.createDirectory(at: scratch.storeFile, withIntermediateDirectories: true)
        store.setClientCredentials(StorageSamples.credentials)
        #expect(store.clientCredentials == StorageSamples.credentials)
        let problem = try #require(reports.all.first)
        #expect(reports.all.count == 1)
        #expect(problem.cause == .directoryInTheWay)
        #expect(problem.operation == .save)
        #expect(problem.path == scratch.storeFile.path)
        #expect(problem.message.contains(scratch.storeFile.path))
        #expect(problem.message.contains("registered client"))
        #expect(problem.message.contains("Remove or rename it"))
        #expect(!problem.message.contains(StorageSamples.credentials.clientSecret), "no secret in the sentence")
        #expect(store.lastError?.contains("could not save store.json") == true)
        #expect(
            scratch.fileNames() == [StorageLayout.identityFile, StorageLayout.storeFile],
            "no temporary file left behind")
    }

    @Test("A read-only directory is reported as such")
    func readOnlyDirectory() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let reports = Reports()
        _ = open(scratch, reports: reports)
        let store = open(scratch, Self.failing(EROFS), reports: reports)
        store.setProfile(StorageSamples.profile())
        #expect(store.profile(requestor: "REF30") == StorageSamples.profile())
        let problem = try #require(reports.all.last)
        #expect(problem.cause == .readOnly)
        #expect(problem.path == scratch.storeFile.path)
        #expect(problem.message.contains("sign-in of REF30"))
        #expect(problem.message.contains("read-only"))
        #expect(problem.message.contains("storageDirectory"))

        // Where permissions are enforced (not as root), the real file system says so too.
        if geteuid() != 0 {
            let real = Reports()
            let writable = open(scratch, reports: real)
            chmod(scratch.statementDirectory.path, 0o500)
            defer { chmod(scratch.statementDirectory.path, 0o700) }
            writable.setAccessToken(StorageSamples.token)
            #expect(real.all.first?.cause == .permissionDenied)
        }
    }

    @Test("A full disk is reported with what to do, for writes and for deletions")
    func fullDisk() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let reports = Reports()
        let filled = open(scratch, reports: reports)
        StorageSamples.fill(filled)
        let store = open(scratch, Self.failing(ENOSPC), reports: reports)
        store.setAccessToken(StoredAccessToken(value: "new", expiresAt: StorageScratch.start + 60))
        store.removeProfile(requestor: "REF30")
        let problems = reports.all
        try #require(problems.count == 2)
        #expect(problems.allSatisfy { $0.cause == .diskFull })
        #expect(problems.map(\.operation) == [.save, .delete])
        #expect(
            problems[0].message.hasPrefix(
                "Could not save the access token (\(scratch.storeFile.path)): the disk is full. Free some space"))
        #expect(
            problems[1].message.hasPrefix(
                "Could not delete the sign-in of REF30 (\(scratch.storeFile.path)): the disk is full"))
        #expect(store.profile(requestor: "REF30") == nil, "memory follows the change")
        // Nothing on disk was lost: a later launch still finds what was stored.
        #expect(StorageSamples.isFilled(open(scratch, reports: Reports())))
    }

    @Test("Failures of writes behind the caller are reported from the write queue")
    func writeBehindFailure() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let reports = Reports()
        _ = open(scratch, reports: reports)
        let store = open(scratch, Self.failing(ENOSPC), reports: reports, writeBehind: true)
        store.setAccessToken(StorageSamples.token)
        store.flush()
        #expect(reports.all.map(\.cause) == [.diskFull])
    }

    @Test("A store that cannot keep its identity sends the same derived device identifier at every launch")
    func derivedIdentityIsStable() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        let reports = Reports()
        // The directory exists, but the identity file can never be written.
        try FileManager.default.createDirectory(at: scratch.statementDirectory, withIntermediateDirectories: true)
        let first = open(scratch, Self.failing(EROFS), reports: reports)
        let second = open(scratch, Self.failing(EROFS), reports: reports)
        #expect(first.deviceIdentifier == second.deviceIdentifier)
        #expect(first.deviceIdentifier.count == 64 && Hex.decode(first.deviceIdentifier)?.count == 32)
        #expect(!scratch.fileNames().contains(StorageLayout.identityFile))
        #expect(reports.all.contains { $0.subject == "the device identifier" && $0.cause == .readOnly })
        #expect(first.lastError?.contains("derived from this machine") == true)
        // Another machine, another identifier; another statement, another identifier.
        let elsewhere = open(scratch, Self.failing(EROFS, machineID: "machine-2"), reports: reports)
        #expect(elsewhere.deviceIdentifier != first.deviceIdentifier)
        let otherApp = TokenStore(
            directory: scratch.root, softwareStatement: "another-statement", integrityCheck: .INTEGRITY_CHECK_NONE,
            system: Self.failing(EROFS), now: { StorageScratch.start })
        #expect(otherApp.deviceIdentifier != first.deviceIdentifier)
    }

    @Test("An unusable storage directory is reported and still gives a stable device identifier")
    func unusableDirectory() throws {
        let scratch = StorageScratch()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(at: scratch.root, withIntermediateDirectories: true)
        try scratch.overwrite(scratch.statementDirectory, with: "a file where the directory should be")
        let reports = Reports()
        let first = open(scratch, reports: reports)
        let second = open(scratch, reports: reports)
        #expect(first.deviceIdentifier == second.deviceIdentifier, "no new identifier per launch")
        #expect(reports.all.count == 2)
        #expect(reports.all.first?.cause == .fileInTheWay)
        #expect(reports.all.first?.message.contains(scratch.statementDirectory.path) == true)
        StorageSamples.fill(first)
        #expect(StorageSamples.isFilled(first))
        #expect(reports.all.count == 2, "a store that keeps nothing does not report every change")
    }

    @Test("Each cause has its own advice")
    func messages() {
        let causes: [StorageProblem.Cause] = [
            .diskFull, .readOnly, .permissionDenied, .directoryInTheWay, .fileInTheWay, .other("I/O error"),
        ]
        let messages = causes.map {
            StorageProblem(subject: "the access token", path: "/data/x.json", operation: .save, cause: $0).message
        }
        #expect(Set(messages).count == causes.count)
        #expect(
            messages.allSatisfy {
                $0.hasPrefix("Could not save the access token (/data/x.json): ")
                    && $0.hasSuffix("lost when the app quits.")
            })
        #expect(StorageProblem.Cause(errno: EDQUOT) == .diskFull)
        #expect(StorageProblem.Cause(errno: EACCES) == .permissionDenied)
        #expect(StorageProblem.Cause(errno: EIO) == .other(String(cString: strerror(EIO))))
    }
}
