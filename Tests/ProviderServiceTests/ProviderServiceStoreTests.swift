import AccessEnablerProviderService
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What the service keeps on disk: one envelope, 0600 in a 0700 directory, surviving a
/// restart; a file it cannot read set aside, never deleted; a stranger's directory refused.
@Suite struct ProviderServiceStoreTests {
    static let news = AppIdentity(requestor: "REF30", name: "News")!
    static let state = StoredServiceState(
        household: HouseholdSignIn(
            provider: "AppleBoarded", providerName: "Apple Boarded TV",
            expiresAt: Date(timeIntervalSince1970: 1_767_312_000), credential: "c-1"),
        permissions: [news: .granted, AppIdentity(requestor: "REF31", name: "Sports")!: .restricted])

    /// A fresh directory under the temporary directory, removed by `body`'s end.
    private func withScratch(_ body: (String) throws -> Void) rethrows {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("provider-store-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try body(root)
    }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        _ = lstat(path, &info)
        return info.st_mode & 0o7777
    }

    @Test func whatIsSavedIsWhatTheNextStartReads() throws {
        try withScratch { root in
            let store = try ProviderServiceStore(directory: root + "/state")
            #expect(store.load().state == StoredServiceState(), "nothing yet")
            try store.save(Self.state)
            let (loaded, problem) = try ProviderServiceStore(directory: root + "/state").load()
            #expect(loaded == Self.state)
            #expect(problem == nil)
            #expect(mode(root + "/state") == 0o700)
            #expect(mode(store.path) == 0o600)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: root + "/state")
            #expect(leftovers == ["state.json"], "no temporary file left behind")
        }
    }

    @Test func aFileThatCannotBeReadIsSetAsideNotDeleted() throws {
        try withScratch { root in
            let store = try ProviderServiceStore(directory: root)
            for damaged in [
                "{\"format\":1,\"household\":null", "{\"format\":2,\"household\":null,\"permissions\":[]}",
                "\u{0}\u{1}", "[]",
            ] {
                try Data(damaged.utf8).write(to: URL(fileURLWithPath: store.path))
                let (loaded, problem) = store.load()
                #expect(loaded == StoredServiceState(), "\(damaged)")
                #expect(problem?.contains("moved to") == true, "\(damaged): \(problem ?? "")")
                let kept = try FileManager.default.contentsOfDirectory(atPath: root).filter {
                    $0.hasPrefix("state.json.unreadable-")
                }
                #expect(!kept.isEmpty)
                for file in kept {
                    #expect(try String(contentsOfFile: root + "/" + file, encoding: .utf8) == damaged)
                    try FileManager.default.removeItem(atPath: root + "/" + file)
                }
            }
        }
    }

    @Test func valuesThatCannotBeTrueAreRefused() throws {
        try withScratch { root in
            let store = try ProviderServiceStore(directory: root)
            let bad = [
                #"{"format":1,"household":{"provider":"A","providerName":"A","expiresAt":1e300,"credential":"c"},"#
                    + #""permissions":[]}"#,
                #"{"format":1,"household":{"provider":"A","providerName":"A","expiresAt":-5,"credential":"c"},"#
                    + #""permissions":[]}"#,
                #"{"format":1,"household":{"provider":"","providerName":"A","expiresAt":5,"credential":"c"},"#
                    + #""permissions":[]}"#,
                #"{"format":1,"household":null,"permissions":[{"requestor":"R","name":"N","accessStatus":"maybe"}]}"#,
            ]
            for text in bad {
                try Data(text.utf8).write(to: URL(fileURLWithPath: store.path))
                #expect(store.load().state == StoredServiceState(), "\(text)")
            }
        }
    }

    @Test func aDirectoryThatExistsIsNeverChangedAndOneOthersMayWriteIsRefused() throws {
        try withScratch { root in
            try FileManager.default.createDirectory(
                atPath: root + "/readable", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            _ = try ProviderServiceStore(directory: root + "/readable")
            #expect(mode(root + "/readable") == 0o755, "not the service's to change; state.json is 0600 in it")
            for writable: mode_t in [0o775, 0o757] {
                try FileManager.default.createDirectory(atPath: root + "/writable", withIntermediateDirectories: true)
                #expect(chmod(root + "/writable", writable) == 0)
                let refusal = #expect(throws: PrivateDirectory.Refusal.self) {
                    try ProviderServiceStore(directory: root + "/writable")
                }
                #expect(refusal?.reason.contains("may write it") == true)
                #expect(mode(root + "/writable") == writable, "refused, and left as it was")
                try FileManager.default.removeItem(atPath: root + "/writable")
            }
        }
    }

    @Test func aSymbolicLinkOrADirectoryOthersMayReplaceIsRefused() throws {
        try withScratch { root in
            try FileManager.default.createDirectory(atPath: root + "/real", withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: root + "/real")
            #expect(throws: PrivateDirectory.Refusal.self) { try ProviderServiceStore(directory: root + "/link") }
            try FileManager.default.createDirectory(atPath: root + "/open", withIntermediateDirectories: true)
            #expect(chmod(root + "/open", 0o777) == 0)
            let refusal = #expect(throws: PrivateDirectory.Refusal.self) {
                try ProviderServiceStore(directory: root + "/open/state")
            }
            #expect(refusal?.reason.contains("sticky") == true)
            #expect(chmod(root + "/open", 0o1777) == 0)
            _ = try ProviderServiceStore(directory: root + "/open/state")
        }
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to make a directory of another user"))
    func anotherUsersDirectoryIsRefused() throws {
        try withScratch { root in
            try FileManager.default.createDirectory(atPath: root + "/theirs", withIntermediateDirectories: true)
            #expect(chown(root + "/theirs", 65_534, 65_534) == 0)
            let refusal = #expect(throws: PrivateDirectory.Refusal.self) {
                try ProviderServiceStore(directory: root + "/theirs")
            }
            #expect(refusal?.reason.contains("belongs to user 65534") == true)
        }
    }
}

/// Who may talk to the service.
@Suite struct PeerPolicyTests {
    @Test func perUserOnlyTheServicesUserAndRoot() {
        #expect(PeerPolicy.role(peer: 1_000, service: 1_000, sharing: .user) == .administrator)
        #expect(PeerPolicy.role(peer: 0, service: 1_000, sharing: .user) == .administrator)
        #expect(PeerPolicy.role(peer: 1_001, service: 1_000, sharing: .user) == nil)
    }

    @Test func systemWideTheGroupsMembersAreApps() {
        #expect(PeerPolicy.role(peer: 1_001, service: 999, sharing: .group(990)) == .app)
        #expect(PeerPolicy.role(peer: 999, service: 999, sharing: .group(990)) == .administrator)
        #expect(PeerPolicy.role(peer: 0, service: 999, sharing: .group(990)) == .administrator)
    }
}

/// The device's prompt: the answer a command gives.
@Suite struct PromptHookTests {
    static let news = AppIdentity(requestor: "REF30", name: "News")!

    @Test func theFirstWordPrintedIsTheAnswerElseTheExitStatus() {
        #expect(PromptHook.answer(ending: .exited(1), output: "granted\n") == .granted)
        #expect(PromptHook.answer(ending: .exited(0), output: "  denied because\n") == .denied)
        #expect(PromptHook.answer(ending: .exited(0), output: "restricted") == .restricted)
        #expect(PromptHook.answer(ending: .exited(0), output: "notDetermined") == nil)
        #expect(PromptHook.answer(ending: .exited(0), output: "") == .granted)
        #expect(PromptHook.answer(ending: .exited(1), output: "ok") == .denied)
        #expect(PromptHook.answer(ending: .exited(2), output: "") == nil)
        #expect(PromptHook.answer(ending: .signalled(9), output: "") == nil)
        #expect(PromptHook.answer(ending: .timedOut, output: "granted") == nil)
        #expect(PromptHook.answer(ending: .notStarted("no shell"), output: "") == nil)
    }

    @Test func aCommandLearnsTheAppFromItsEnvironment() async {
        let hook = PromptHook(
            command:
                #"[ "$ACCESSENABLER_APP_NAME" = News ] && [ "$ACCESSENABLER_APP_REQUESTOR" = REF30 ] && echo granted "#
                + #"|| echo denied"#,
            timeout: 60)
        #expect(await hook.ask(Self.news) == .granted)
        #expect(await PromptHook(command: "exit 1", timeout: 60).ask(Self.news) == .denied)
    }

    @Test func aCommandThatOverstaysIsKilledWithWhatItStarted() async {
        let started = Date()
        #expect(await PromptHook(command: "sleep 600 & sleep 600", timeout: 0.5).ask(Self.news) == nil)
        #expect(Date().timeIntervalSince(started) < 300, "the command was killed, not waited for")
    }
}
