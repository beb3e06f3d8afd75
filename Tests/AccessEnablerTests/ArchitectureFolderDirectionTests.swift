import Foundation
import Testing

/// The SDK's folders depend one way: a file may name what its own folder and the folders
/// below it declare, never what a higher folder declares. The order (lowest first) is the
/// one Docs/Architecture.md draws.
///
/// How it is checked, simply: every top-level declaration (type, type alias, global
/// constant or function) belongs to the folder of its file; a file's code — with comments
/// and string literals removed — is split into words, and a word that is the name of a
/// higher folder's declaration is a violation. Names are the whole test: a nested type
/// that happens to share a higher folder's top-level name would be reported too (rename
/// one of them: two names for two things).
@Suite struct ArchitectureFolderDirectionTests {
    /// Lowest first.
    static let layers = [
        "Support", "Transport", "Storage", "Partner", "REST", "API", "Decisions", "StateMachines",
        "Engine/Delivery", "Engine/Mailbox", "Engine/Work", "Engine/Driver", "Facade",
    ]

    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/AccessEnabler")

    /// The layer a file belongs to: the longest layer its path starts with.
    static func layer(of path: String) -> Int? {
        layers.indices.filter { path.hasPrefix(layers[$0] + "/") }.max { layers[$0].count < layers[$1].count }
    }

    /// The Swift files of the SDK, by path under `Sources/AccessEnabler`.
    static func files() throws -> [(path: String, source: String)] {
        let enumerator = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var files: [(String, String)] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let path = String(url.standardizedFileURL.path.dropFirst(sources.standardizedFileURL.path.count + 1))
            files.append((path, try String(contentsOf: url, encoding: .utf8)))
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// The source without comments and string literals.
    static func code(_ source: String) -> String {
        var text = source.replacingOccurrences(of: #""""[\s\S]*?""""#, with: "\"\"", options: .regularExpression)
        text = text.replacingOccurrences(of: #"/\*[\s\S]*?\*/"#, with: "", options: .regularExpression)
        text = text.replacingOccurrences(of: #"//[^\n]*"#, with: "", options: .regularExpression)
        text = text.replacingOccurrences(of: #""(?:\\.|[^"\\\n])*""#, with: "\"\"", options: .regularExpression)
        return text
    }

    /// The names a file declares at the top level.
    static func declarations(_ source: String) -> [String] {
        let pattern =
            #"(?m)^(?:(?:public|package|internal|private|fileprivate|final|nonisolated|indirect)\s+)*(?:struct|class|enum|protocol|actor|typealias|func|let|var)\s+([A-Za-z_][A-Za-z0-9_]*)"#
        let regex = try! NSRegularExpression(pattern: pattern)
        let range = NSRange(source.startIndex..., in: source)
        return regex.matches(in: source, range: range).compactMap {
            Range($0.range(at: 1), in: source).map { String(source[$0]) }
        }
    }

    static func words(_ code: String) -> Set<String> {
        Set(code.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
    }

    @Test func everyFileBelongsToALayer() throws {
        let stray = try Self.files().map(\.path).filter { Self.layer(of: $0) == nil }
        #expect(stray.isEmpty, "files outside the layers: \(stray)")
    }

    /// The unit tests mirror the layers: every test file sits in the folder of a layer (its
    /// first component), but for the tests of the whole module listed here.
    @Test func everyUnitTestSitsInTheFolderOfALayer() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let wholeModule: Set<String> = ["ArchitectureFolderDirectionTests.swift", "NumberConversionLintTests.swift"]
        let folders = Set(Self.layers.map { String($0.split(separator: "/")[0]) })
        let enumerator = try #require(FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil))
        var misplaced: [String] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let path = String(url.standardizedFileURL.path.dropFirst(tests.standardizedFileURL.path.count + 1))
            let components = path.split(separator: "/").map(String.init)
            if components.count == 1 ? !wholeModule.contains(path) : !folders.contains(components[0]) {
                misplaced.append(path)
            }
        }
        #expect(misplaced.isEmpty, "unit tests outside the folder of a layer: \(misplaced.sorted())")
    }

    /// A test file sits in the folder of the layer it tests, not merely in some layer's
    /// folder: a name that starts with a layer (`StorageWriteTests`, `DecisionLedgerTests`)
    /// sits in that layer's folder, and a name that is a layer then an SDK type
    /// (`RESTURLSessionTransportTests` names `URLSessionTransport`) sits in the folder that
    /// declares the type.
    @Test func everyUnitTestSitsInTheFolderOfTheLayerItNames() throws {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let folders = Set(Self.layers.map { String($0.split(separator: "/")[0]) })
        // A file name may start with a folder's singular: `Decision…` for `Decisions/`.
        var prefixes: [String: String] = [:]
        for folder in folders {
            prefixes[folder] = folder
            if folder.hasSuffix("s") { prefixes[String(folder.dropLast())] = folder }
        }
        var folderOfType: [String: String] = [:]
        for file in try Self.files() {
            guard let layer = Self.layer(of: file.path) else { continue }
            let folder = String(Self.layers[layer].split(separator: "/")[0])
            for name in Self.declarations(file.source) where folderOfType[name] == nil { folderOfType[name] = folder }
        }
        let enumerator = try #require(FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil))
        var misplaced: [String] = []
        for case let url as URL in enumerator where url.pathExtension == "swift" {
            let path = String(url.standardizedFileURL.path.dropFirst(tests.standardizedFileURL.path.count + 1))
            let components = path.split(separator: "/").map(String.init)
            guard components.count > 1 else { continue }
            let name = url.deletingPathExtension().lastPathComponent
            let prefix = prefixes.keys.filter { name.hasPrefix($0) }.max { $0.count < $1.count }
            if let prefix, let named = prefixes[prefix], named != components[0] {
                misplaced.append("\(path) (named after \(named)/)")
            }
            var subject = prefix.map { String(name.dropFirst($0.count)) } ?? name
            if subject.hasSuffix("Tests") { subject = String(subject.dropLast(5)) }
            if let declared = folderOfType[subject], declared != components[0] {
                misplaced.append("\(path) (tests \(subject), declared in \(declared)/)")
            }
        }
        #expect(misplaced.isEmpty, "unit tests in the folder of another layer: \(misplaced.sorted())")
    }

    @Test func noFolderNamesWhatAHigherFolderDeclares() throws {
        let files = try Self.files()
        var owner: [String: Int] = [:]
        for file in files {
            guard let layer = Self.layer(of: file.path) else { continue }
            for name in Self.declarations(file.source) where owner[name] == nil { owner[name] = layer }
        }
        var violations: [String] = []
        for file in files {
            guard let layer = Self.layer(of: file.path) else { continue }
            for word in Self.words(Self.code(file.source)).sorted() {
                if let declared = owner[word], declared > layer {
                    violations.append("\(file.path) names \(word), declared in \(Self.layers[declared])")
                }
            }
        }
        #expect(violations.isEmpty, "\(violations.joined(separator: "\n"))")
    }

    @Test func theCheckSeesAViolation() {
        // The check itself: a lower folder naming a higher one's declaration is caught.
        let facade = "final class AccessEnabler {}"
        let support = "// AccessEnabler in a comment is fine\nlet x = \"AccessEnabler\"\nlet y = AccessEnabler()"
        #expect(Self.declarations(facade) == ["AccessEnabler"])
        #expect(Self.words(Self.code(support)).contains("AccessEnabler"), "the code line names it")
        #expect(
            !Self.words(Self.code("// AccessEnabler\nlet z = \"AccessEnabler\"")).contains("AccessEnabler"),
            "comments and strings do not")
    }
}
