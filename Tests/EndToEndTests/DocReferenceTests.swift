import Foundation
import Testing

/// The documentation points only at things that exist: every test and scenario file the
/// behaviour matrix names, and every Swift snippet of the migration guide (each must be code
/// that `DocSnippetTests.swift` compiles), so a renamed test or an edited snippet cannot leave
/// the documents behind.
@Suite struct DocReferenceTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Every function and type name declared in the test sources.
    static func declaredNames() throws -> (functions: Set<String>, types: Set<String>) {
        var functions: Set<String> = []
        var types: Set<String> = []
        let tests = root.appendingPathComponent("Tests")
        let files = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        for file in files {
            let source = try String(contentsOf: file, encoding: .utf8)
            for match in source.matches(of: /func\s+(\w+)/) { functions.insert(String(match.1)) }
            for match in source.matches(of: /(?:struct|class|enum|actor)\s+(\w+)/) { types.insert(String(match.1)) }
        }
        return (functions, types)
    }

    /// The last cell of every row of the tables whose last column names tests.
    static func proofCells(in markdown: String) -> [String] {
        var cells: [String] = []
        var provingTable = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("|") else {
                provingTable = false
                continue
            }
            let columns = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
            guard let last = columns.last?.trimmingCharacters(in: .whitespaces) else { continue }
            if last.hasPrefix("---") { continue }
            if ["Proven by", "Test", "Proven by, or why not"].contains(last) {
                provingTable = true
                continue
            }
            if provingTable { cells.append(last) }
        }
        return cells
    }

    /// The test names a proof cell mentions: `Suite.test`, `.test` after it, `` `test` ``.
    static func referencedNames(in cell: String) -> (functions: [String], types: [String]) {
        var functions: [String] = []
        var types: [String] = []
        for match in cell.matches(of: /\b([A-Z]\w*Tests)\b/) { types.append(String(match.1)) }
        for match in cell.matches(of: /\b([A-Z]\w+)\.[a-z]/) { types.append(String(match.1)) }
        for match in cell.matches(of: /\.([a-z]\w{11,})\b/) { functions.append(String(match.1)) }
        for match in cell.matches(of: /`(\w+)`/) {
            let name = String(match.1)
            if name.hasSuffix("Tests") { types.append(name) } else { functions.append(name) }
        }
        return (functions, types)
    }

    @Test func everyTestTheBehaviourMatrixNamesExists() throws {
        let matrix = try Self.text("Docs/BehaviourMatrix.md")
        let declared = try Self.declaredNames()
        let cells = Self.proofCells(in: matrix)
        #expect(cells.count > 150, "the matrix's proof columns were not found")
        var missing: [String] = []
        for cell in cells {
            let named = Self.referencedNames(in: cell)
            missing += named.functions.filter { !declared.functions.contains($0) }
            missing += named.types.filter { !declared.types.contains($0) }
        }
        #expect(missing.isEmpty, "the behaviour matrix names tests that do not exist: \(missing)")
    }

    @Test func everyScenarioFileTheDocumentsNameExists() throws {
        let scenarios = Set(try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Docs/scenarios").path))
        for document in ["Docs/BehaviourMatrix.md", "Docs/Migration.md"] {
            let names = try Self.text(document).matches(of: /[\w-]+\.json/).map { String($0.0) }
            let missing = Set(names).subtracting(scenarios).subtracting(["world.json"])
            #expect(missing.isEmpty, "\(document) names scenario files that do not exist: \(missing.sorted())")
        }
    }

    /// The anchors of a Markdown document's headings, as GitHub makes them: lower case,
    /// punctuation dropped, each space a hyphen.
    static func anchors(of markdown: String) -> Set<String> {
        var anchors: Set<String> = []
        var inCode = false
        for line in markdown.split(separator: "\n") {
            if line.hasPrefix("```") { inCode.toggle() }
            guard !inCode, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            let kept = title.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == " " || $0 == "-" || $0 == "_" }
            anchors.insert(String(String.UnicodeScalarView(kept)).replacingOccurrences(of: " ", with: "-"))
        }
        return anchors
    }

    @Test func everyLinkToAHeadingFindsIt() throws {
        for document in ["Docs/BehaviourMatrix.md", "Docs/Migration.md"] {
            let text = try Self.text(document)
            var broken: [String] = []
            for match in text.matches(of: /\]\(([\w.]*\.md)?#([^)]+)\)/) {
                let target = match.1.map { "Docs/\($0)" } ?? document
                if !Self.anchors(of: try Self.text(target)).contains(String(match.2)) { broken.append("\(target)#\(match.2)") }
            }
            #expect(broken.isEmpty, "\(document) links to headings that do not exist: \(broken)")
        }
    }

    /// A snippet's lines without indentation or blank lines.
    static func normalisedLines(_ text: some StringProtocol) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    @Test func everySwiftSnippetOfTheMigrationGuideIsCompiledCode() throws {
        let guide = try Self.text("Docs/Migration.md")
        let compiled = Self.normalisedLines(try Self.text("Tests/EndToEndTests/DocSnippetTests.swift"))
        let blocks = guide.matches(of: /```swift\n((?:.|\n)*?)```/).map { Self.normalisedLines($0.1) }
        #expect(blocks.count >= 5, "the migration guide's Swift snippets were not found")
        for block in blocks {
            let found = compiled.indices.contains { start in
                compiled[start...].starts(with: block)
            }
            #expect(found, "this snippet of Docs/Migration.md is not in DocSnippetTests.swift line for line:\n\(block.joined(separator: "\n"))")
        }
    }
}
