import Foundation
import Testing

@testable import AccessEnabler

/// The change watch that spares checkAuthentication a `stat` per call: once armed it says
/// "nothing changed" without a system call, hears another writer's rename of `store.json`
/// through the kernel, hears a store of this process at once, and where no watch can be had
/// it answers "maybe" every time (the store then compares the file's signature, as before).
@Suite("Storage: the change watch")
struct StoreChangeWatchTests {
    private func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("store-watch-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("An armed watch says nothing changed until another writer renames store.json over it")
    func anArmedWatchHearsAnotherWritersRename() async throws {
        let root = try directory()
        defer { try? FileManager.default.removeItem(at: root) }
        let watch = StoreChangeWatch(directory: root.path)
        watch.arm()
        #expect(watch.mayHaveChanged(), "what happened before the watch began is looked at once")
        #expect(!watch.mayHaveChanged(), "then nothing changed: no stat needed")
        // Another process's write, as the SDK makes it: a temporary file renamed into place.
        let temporary = root.appendingPathComponent(".store.json.other.tmp")
        try Data("{}".utf8).write(to: temporary)
        _ = rename(temporary.path, root.appendingPathComponent(StorageLayout.storeFile).path)
        // The watcher's thread reads the kernel's notice: a progress-based wait (up to a
        // minute, only a bound on a hang), no timing.
        var heard = false
        var waits = 0
        while !heard, waits < 60_000 {
            heard = watch.mayHaveChanged()
            if !heard {
                waits += 1
                try await Task.sleep(nanoseconds: 1_000_000)
            }
        }
        #expect(heard, "the kernel's notice of the rename reached the watch")
        #expect(!watch.mayHaveChanged(), "heard once")
    }

    @Test("A write by a store of this process is heard by every watch of the directory before it returns")
    func aWriteHereIsHeardAtOnce() throws {
        let root = try directory()
        defer { try? FileManager.default.removeItem(at: root) }
        let writer = StoreChangeWatch(directory: root.path)
        let reader = StoreChangeWatch(directory: root.path)
        writer.arm()
        reader.arm()
        _ = writer.mayHaveChanged()
        _ = reader.mayHaveChanged()
        #expect(!reader.mayHaveChanged())
        writer.noteWriteHere()
        #expect(reader.mayHaveChanged(), "no wait for the kernel's notice")
        #expect(writer.mayHaveChanged())
    }

    @Test("Without a watch (the directory is not there) every question answers maybe")
    func withoutAWatchEveryQuestionAnswersMaybe() {
        let missing = FileManager.default.temporaryDirectory
            .appendingPathComponent("store-watch-missing-\(UUID().uuidString)")
        let watch = StoreChangeWatch(directory: missing.path)
        watch.arm()
        #expect(watch.mayHaveChanged())
        #expect(watch.mayHaveChanged(), "the store falls back to its stat at every call")
    }
}
