import Foundation
import Testing

/// `Storage/` stays small enough to read, read from the sources: a file that grows past 500
/// lines is split by role, as `TokenStore/` is (its state and opening, one file per kind of
/// record, the commit points, the writer, the reads of other writers' versions).
@Suite struct StorageFileSizeTests {
    @Test func noFileInStorageIsOver500Lines() throws {
        let files = try ArchitectureFolderDirectionTests.files().filter { $0.path.hasPrefix("Storage/") }
        #expect(files.contains { $0.path.hasPrefix("Storage/TokenStore/") })
        let long = files.compactMap { file -> String? in
            let lines = file.source.split(separator: "\n", omittingEmptySubsequences: false).count
            return lines > 500 ? "\(file.path): \(lines) lines" : nil
        }
        #expect(long.isEmpty, "split these by role: \(long)")
    }
}
