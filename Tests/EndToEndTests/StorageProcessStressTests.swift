import Foundation
import Testing

@testable import AccessEnabler

/// Several real processes over one new storage directory, each launching again and again
/// (opening the store sweeps leftovers) while the others write: they share one device
/// identity, no write is lost, and INTEGRITY_CHECK_ALL finds nothing damaged, in any of
/// them or afterwards.
@Suite("Storage across processes", .timeLimit(.minutes(20)))
struct StorageProcessStressTests {
    static let writers = 3
    static let rounds = 8

    @Test func processesLaunchingAndWritingAtOnceShareOneIdentityAndLoseNothing() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "accessenabler-processes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let start = root.appendingPathExtension("start")
        defer { try? FileManager.default.removeItem(at: start) }
        let binary = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))

        let outputs: [String] = try await ChildProcessGate.shared.withGate {
            let children = try (0..<Self.writers).map { writer in
                try RunningCommand(
                    binary, ["--testing-library", "swift-testing", "--filter", "StorageProcessStressHelper"],
                    environment: [
                        StorageProcessStressHelper.directoryVariable: root.path,
                        StorageProcessStressHelper.writerVariable: "\(writer)",
                        StorageProcessStressHelper.startVariable: start.path, "SWIFT_BACKTRACE": "enable=no",
                    ])
            }
            // Every child waits for this file: their first launches race for the new directory.
            #expect(FileManager.default.createFile(atPath: start.path, contents: Data()))
            var outputs: [String] = []
            for child in children {
                let status = try await child.waitForExit(timeout: SanitizerTiming.scaled(300))
                #expect(status == 0, "a writer failed: \(child.output)\(child.errors)")
                outputs.append(child.output)
            }
            return outputs
        }

        let identities = outputs.compactMap { output in
            output.split(separator: "\n").first { $0.hasPrefix("HELPER identity=") }.map {
                String($0.dropFirst("HELPER identity=".count))
            }
        }
        #expect(identities.count == Self.writers)
        #expect(Set(identities).count == 1, "one device identity for the directory: \(identities)")
        for output in outputs {
            #expect(output.contains("HELPER discards=0 problems=0"), "\(output)")
        }

        let discards = NSLockedValue<[StorageDiscard]>([])
        let checked = TokenStore(
            directory: root, softwareStatement: StorageProcessStressHelper.statement,
            integrityCheck: .INTEGRITY_CHECK_ALL,
            onDiscard: { discard in discards.withLock { $0.append(discard) } },
            now: { StorageProcessStressHelper.start })
        #expect(discards.withLock { $0 }.isEmpty, "\(discards.withLock { $0 })")
        for writer in 0..<Self.writers {
            for round in 0..<Self.rounds {
                #expect(
                    checked.profile(requestor: StorageProcessStressHelper.requestor(writer: writer, round: round))
                        != nil, "writer \(writer), round \(round)")
            }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: checked.statementDirectory.path)
        #expect(names.allSatisfy { !StorageLayout.isTemporaryFile($0) }, "\(names)")
    }
}

/// Runs only in the child processes of ``StorageProcessStressTests`` (their environment
/// names the directory); skipped in every other run.
@Suite struct StorageProcessStressHelper {
    static let directoryVariable = "ACCESSENABLER_STRESS_DIRECTORY"
    static let writerVariable = "ACCESSENABLER_STRESS_WRITER"
    static let startVariable = "ACCESSENABLER_STRESS_START"
    static let statement = "eyJhbGciOiJSUzI1NiJ9.process-stress.sig"

    static let start = Date(timeIntervalSince1970: 1_767_225_600)

    static func requestor(writer: Int, round: Int) -> String { "REF-\(writer)-\(round)" }

    static func profile(_ requestor: String) -> StoredProfile {
        StoredProfile(
            requestor: requestor, mvpd: "NotBoarded", type: .regular, notBefore: start - 60, notAfter: start + 86_400,
            attributes: ["userID": StoredAttribute(value: .string("u-alice"), encrypted: false)],
            tokenSource: nil, partnerProviderID: nil, serviceProviderURL: nil)
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment[StorageProcessStressHelper.directoryVariable] != nil))
    func write() throws {
        let environment = ProcessInfo.processInfo.environment
        let root = URL(fileURLWithPath: try #require(environment[Self.directoryVariable]))
        let writer = try #require(environment[Self.writerVariable].flatMap(Int.init))
        let start = try #require(environment[Self.startVariable])
        while !FileManager.default.fileExists(atPath: start) { usleep(1_000) }
        let discards = NSLockedValue(0)
        let problems = NSLockedValue(0)
        var identity = ""
        for round in 0..<StorageProcessStressTests.rounds {
            // A new store each round: a launch, which reads the directory and sweeps
            // leftovers, while the other processes write.
            let store = TokenStore(
                directory: root, softwareStatement: Self.statement, integrityCheck: .INTEGRITY_CHECK_ALL,
                writeBehind: true,
                onProblem: { _ in problems.withLock { $0 += 1 } }, onDiscard: { _ in discards.withLock { $0 += 1 } },
                now: { StorageProcessStressHelper.start })
            if round == 0 { identity = store.deviceIdentifier }
            #expect(store.deviceIdentifier == identity, "the identity stays the same at every launch")
            let profile = Self.profile(Self.requestor(writer: writer, round: round))
            store.apply(
                ProfileSelection.signIn(profile, over: store.profiles(requestor: profile.requestor), now: Self.start),
                requestor: profile.requestor)
            store.setAccessToken(StoredAccessToken(value: "token-\(writer)-\(round)", expiresAt: Self.start + 3600))
            store.flush()
        }
        print("HELPER identity=\(identity)")
        print("HELPER discards=\(discards.withLock { $0 }) problems=\(problems.withLock { $0 })")
    }
}
