import Foundation
import Testing

@testable import AccessEnabler

/// A file is first written to a temporary file beside it: hidden, named after it, mode 0600,
/// in the same directory (so the rename that replaces the file is atomic), and locked by its
/// writer until it is renamed, so no sweep removes a write in progress.
@Suite struct StorageTemporaryFileTests {
    @Test func theTemporaryFileSitsBesideItsFileHiddenPrivateAndLockedByItsWriter() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tmpfile-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let record = directory.appendingPathComponent("store.json")

        let temporary = try StorageFileSystem.writeTemporary(Data("{}".utf8), beside: record)
        defer { temporary.close() }

        #expect(temporary.url.deletingLastPathComponent().standardizedFileURL == directory.standardizedFileURL)
        #expect(temporary.url.lastPathComponent.hasPrefix(".store.json."))
        #expect(temporary.url.lastPathComponent.hasSuffix(StorageFileSystem.temporarySuffix))
        #expect(try Data(contentsOf: temporary.url) == Data("{}".utf8))
        let mode = try #require(
            try FileManager.default.attributesOfItem(atPath: temporary.url.path)[.posixPermissions] as? NSNumber)
        #expect(mode.intValue & 0o777 == 0o600)
        let another = try StorageFileSystem.writeTemporary(Data(), beside: record)
        defer { another.close() }
        #expect(another.url != temporary.url, "each write has a temporary file of its own")

        // Its writer holds it: a sweep leaves it alone until the writer lets go.
        let probe = open(temporary.url.path, O_RDONLY)
        defer { close(probe) }
        #expect(flock(probe, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)
        #expect(StorageFileSystem.sweepTemporaryFiles(in: directory) == 0)
        another.close()
        #expect(StorageFileSystem.sweepTemporaryFiles(in: directory) == 1)
        #expect(FileManager.default.fileExists(atPath: temporary.url.path))
    }

    @Test func pathsSplitAtTheirLastSlash() {
        #expect(StorageFileSystem.splitPath("/a/b/c.json") == ("/a/b", "c.json"))
        #expect(StorageFileSystem.splitPath("/c.json") == ("", "c.json"))
    }
}

/// The sweep of leftover temporaries touches only what the SDK wrote: names it gives its
/// temporaries, regular files of this user with no other name, in a directory of this
/// user's own — never through a link, never another user's file, never a file it did not
/// name.
@Suite struct StorageSweepTests {
    private static func make(_ path: String, _ content: String = "kept", mode: mode_t = 0o600) {
        #expect(FileManager.default.createFile(atPath: path, contents: Data(content.utf8)))
        #expect(chmod(path, mode) == 0)
    }

    private static func names(_ directory: URL) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
    }

    private static func scratch() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("sweep-\(UUID().uuidString)", isDirectory: true)
    }

    @Test func onlyTheSDKsOwnLeftoversAreRemoved() throws {
        let root = Self.scratch()
        let directory = root.appendingPathComponent("store", isDirectory: true)
        let elsewhere = root.appendingPathComponent("documents", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let leftover = ".store.json.0123456789abcdef.tmp"
        let olderLeftover = ".requestor-ab.json.4242.00ff00ff00ff.tmp"
        Self.make(directory.appendingPathComponent(leftover).path)
        Self.make(directory.appendingPathComponent(olderLeftover).path)
        // Not the SDK's names.
        let strangers = [
            ".notes.tmp", ".bashrc.0123456789abcdef.tmp", ".store.json.0123456789ABCDEF.tmp",
            "store.json.0123456789abcdef.tmp",
        ]
        for name in strangers {
            Self.make(directory.appendingPathComponent(name).path)
        }
        // The SDK's name, but a link to the user's file, and a second name of it.
        let document = elsewhere.appendingPathComponent("letter.txt").path
        Self.make(document, "the user's letter", mode: 0o644)
        #expect(symlink(document, directory.appendingPathComponent(".store.json.1111111111111111.tmp").path) == 0)
        #expect(link(document, directory.appendingPathComponent(".identity.json.2222222222222222.tmp").path) == 0)
        // The SDK's name, but another user's file.
        let theirs = ".store.json.3333333333333333.tmp"
        if geteuid() == 0 {
            Self.make(directory.appendingPathComponent(theirs).path)
            #expect(chown(directory.appendingPathComponent(theirs).path, 65534, 65534) == 0)
        }
        let before = Self.names(directory)

        #expect(StorageFileSystem.sweepTemporaryFiles(in: directory) == 2)
        #expect(Self.names(directory) == before.subtracting([leftover, olderLeftover]))
        var info = stat()
        #expect(stat(document, &info) == 0 && info.st_mode & 0o7777 == 0o644 && info.st_nlink == 2, "as it was")
        #expect(try String(contentsOfFile: document, encoding: .utf8) == "the user's letter")
    }

    @Test func aDirectoryReachedThroughALinkOrOfAnotherUserIsNotSwept() throws {
        let root = Self.scratch()
        let documents = root.appendingPathComponent("documents", isDirectory: true)
        try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let leftover = documents.appendingPathComponent(".store.json.0123456789abcdef.tmp").path
        Self.make(leftover)
        let link = root.appendingPathComponent("store")
        #expect(symlink(documents.path, link.path) == 0)
        #expect(StorageFileSystem.sweepTemporaryFiles(in: link) == 0, "not through a link")
        #expect(FileManager.default.fileExists(atPath: leftover))
        #expect(chmod(documents.path, 0o777) == 0)
        #expect(StorageFileSystem.sweepTemporaryFiles(in: documents) == 0, "not in a directory others may write")
        #expect(chmod(documents.path, 0o700) == 0)
        if geteuid() == 0 {
            #expect(chown(documents.path, 65534, 65534) == 0)
            #expect(StorageFileSystem.sweepTemporaryFiles(in: documents) == 0, "not in another user's directory")
            #expect(chown(documents.path, 0, 0) == 0)
        }
        #expect(FileManager.default.fileExists(atPath: leftover))
        #expect(StorageFileSystem.sweepTemporaryFiles(in: documents) == 1, "the user's own store directory is swept")
    }
}
