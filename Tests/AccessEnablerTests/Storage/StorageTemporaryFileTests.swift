import Foundation
import Testing

@testable import AccessEnabler

/// A record is first written to a temporary file beside it: hidden, named after it, mode
/// 0600, in the same directory (so the rename that replaces the record is atomic).
@Suite struct StorageTemporaryFileTests {
    @Test func theTemporaryFileSitsBesideItsRecordHiddenAndPrivate() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tmpfile-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let record = directory.appendingPathComponent("requestor-abc.json")

        let temporary = try StorageFileSystem.writeTemporary(Data("{}".utf8), beside: record)

        #expect(temporary.deletingLastPathComponent().standardizedFileURL == directory.standardizedFileURL)
        #expect(temporary.lastPathComponent.hasPrefix(".requestor-abc.json."))
        #expect(temporary.lastPathComponent.hasSuffix(StorageFileSystem.temporarySuffix))
        #expect(try Data(contentsOf: temporary) == Data("{}".utf8))
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: temporary.path)[.posixPermissions] as? NSNumber)
        #expect(mode.intValue & 0o777 == 0o600)
        let another = try StorageFileSystem.writeTemporary(Data(), beside: record)
        #expect(another != temporary, "each write has a temporary file of its own")
    }

    @Test func pathsSplitAtTheirLastSlash() {
        #expect(StorageFileSystem.splitPath("/a/b/c.json") == ("/a/b", "c.json"))
        #expect(StorageFileSystem.splitPath("/c.json") == ("", "c.json"))
    }
}
