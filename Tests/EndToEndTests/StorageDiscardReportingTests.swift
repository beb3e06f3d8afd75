import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox
import Testing

/// A stored file the SDK discards — corrupt, or changed outside the SDK under
/// INTEGRITY_CHECK_ALL — is reported to the app: status SEC412 (warning) ahead of its first
/// call's callbacks, and a `storageProblem` diagnostic naming the file (or the directory
/// cleared) and the reason. A file changed outside the SDK under INTEGRITY_CHECK_NONE is
/// trusted, so nothing is reported.
@Suite struct StorageDiscardReportingTests {
    enum Damage: String, CaseIterable {
        /// The store file is no longer JSON.
        case corrupt
        /// The sign-in's MVPD was changed in the store file, its integrity code left as it was.
        case tampered
    }

    /// Signs in (TempPass: no login page), damages the store file, relaunches with `check`
    /// and returns the first call's callbacks and every storage diagnostic.
    private func relaunch(after damage: Damage, check: IntegrityCheckType) async throws -> (
        signatures: [String], lines: [TranscriptLine], diagnostics: [String], file: URL
    ) {
        let sandbox = PassSandbox()
        let storage = FileManager.default.temporaryDirectory.appendingPathComponent(
            "accessenabler-discard-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storage) }
        let diagnostics = NSLockedBox<[String]>()
        func configuration() -> AccessEnablerConfiguration {
            var configuration = AccessEnablerConfiguration(
                environment: .custom(sandbox.baseURLForLinks), platform: .tvOS, storageDirectory: storage,
                transport: sandbox.transport,
                clock: SandboxTimeSource(sandbox.clock))
            configuration.diagnostics = { diagnostic in
                if case .storageProblem(let message) = diagnostic {
                    diagnostics.value = (diagnostics.value ?? []) + [message]
                }
            }
            return configuration
        }
        let recorder = CallbackRecorder(revealSecrets: true)
        let first = AccessEnabler(storageCheck: check, softwareStatement: "STATEMENT", configuration: configuration())
        first.delegate = recorder
        first.statusDelegate = recorder
        first.setRequestor("REF30")
        first.getAuthentication()
        first.setSelectedProvider("TempPass")
        await first.waitUntilIdle()
        #expect(recorder.takeSignatures().last == authenticated)
        #expect(diagnostics.value == nil)

        let file = try #require(
            RegularStorageTests.files(under: storage).first { $0.lastPathComponent == "store.json" })
        switch damage {
        case .corrupt:
            try Data("not json".utf8).write(to: file)
        case .tampered:
            let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            #expect(text.contains(#""mvpd":"TempPass""#))
            try Data(text.replacingOccurrences(of: #""mvpd":"TempPass""#, with: #""mvpd":"NotBoarded""#).utf8).write(
                to: file)
        }

        let relaunched = AccessEnabler(
            storageCheck: check, softwareStatement: "STATEMENT", configuration: configuration())
        relaunched.delegate = recorder
        relaunched.statusDelegate = recorder
        relaunched.setRequestor("REF30")
        await relaunched.waitUntilIdle()
        let lines = recorder.callbacks
        return (recorder.takeSignatures(), lines, diagnostics.value ?? [], file)
    }

    @Test(arguments: [IntegrityCheckType.INTEGRITY_CHECK_NONE, .INTEGRITY_CHECK_ALL])
    func aCorruptFileIsReported(check: IntegrityCheckType) async throws {
        let (signatures, lines, diagnostics, file) = try await relaunch(after: .corrupt, check: check)
        #expect(signatures == ["status(SEC412,warning)", "setRequestorComplete(1)"])
        let message = try #require(lines.first { $0.callback == "status" }?["message"]?.stringValue)
        #expect(diagnostics == [message], "the same sentence reaches the diagnostics hook")
        #expect(message.contains("not a JSON object"))
        if check == .INTEGRITY_CHECK_ALL {
            #expect(message.contains("every stored value except the device identifier was cleared"))
            #expect(message.contains(file.lastPathComponent))
        } else {
            #expect(message.hasPrefix("Discarded the stored sign-ins, client and token (\(file.path))"))
        }
    }

    @Test func aTamperedFileUnderALLIsReported() async throws {
        let (signatures, lines, diagnostics, file) = try await relaunch(after: .tampered, check: .INTEGRITY_CHECK_ALL)
        #expect(signatures == ["status(SEC412,warning)", "setRequestorComplete(1)"])
        let message = try #require(lines.first { $0.callback == "status" }?["message"]?.stringValue)
        #expect(diagnostics == [message])
        #expect(message.contains("\(file.lastPathComponent): integrity check failed (changed outside the SDK)"))
    }

    @Test func aTamperedFileUnderNONEIsTrustedAndNothingIsReported() async throws {
        let (signatures, _, diagnostics, _) = try await relaunch(after: .tampered, check: .INTEGRITY_CHECK_NONE)
        #expect(signatures == ["setRequestorComplete(1)"])
        #expect(diagnostics.isEmpty)
    }
}
