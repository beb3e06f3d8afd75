import Foundation
import Testing

@testable import AccessEnabler

/// A file is first written to a temporary file beside it: hidden, named after it, mode 0600,
/// in the same directory (so the rename that replaces the file is atomic), and locked by its
/// writer until it is renamed, so no sweep removes a write in progress.
@Suite struct StorageTemporaryFileTests {
    @Test func theTemporaryFileSitsBesideItsFileHiddenPrivateAndLockedByItsWriter() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tmpfile-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let record = directory.appendingPathComponent("store.json")

        let temporary = try StorageFileSystem.writeTemporary(Data("{}".utf8), beside: record)
        defer { temporary.close() }

        #expect(temporary.url.deletingLastPathComponent().standardizedFileURL == directory.standardizedFileURL)
        #expect(temporary.url.lastPathComponent.hasPrefix(".store.json."))
        #expect(temporary.url.lastPathComponent.hasSuffix(StorageFileSystem.temporarySuffix))
        #expect(try Data(contentsOf: temporary.url) == Data("{}".utf8))
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: temporary.url.path)[.posixPermissions] as? NSNumber)
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
