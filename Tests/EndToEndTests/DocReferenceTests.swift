import AccessEnabler
import Foundation
import Testing

/// The documentation points only at things that exist: every test and scenario file the
/// behaviour matrix names, every file and heading a document links to, and every Swift
/// snippet of README and of the DocC articles (each must be code the package compiles: a
/// test file, or an example under Examples/), so a renamed test or an edited snippet cannot
/// leave the documents behind.
@Suite struct DocReferenceTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The DocC catalog of the AccessEnabler library.
    static let catalog = "Sources/AccessEnabler/AccessEnabler.docc"

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The Markdown files directly in `directory`, as paths from the package root, sorted.
    static func markdownFiles(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(directory).path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "\(directory)/\($0)" }
    }

    /// The documents a reader copies Swift from: README and every article of the catalog.
    static func documentsWithSnippets() throws -> [String] {
        ["README.md", "Docs/Migration.md"] + (try markdownFiles(in: catalog))
    }

    /// Articles whose snippets show configuration the library does not have yet, so no code
    /// can compile them; the article says so. Checked the other way too: once a snippet of
    /// one compiles, it must come off this list.
    static let snippetsAwaitingTheirAPI: Set<String> = []

    /// Every Swift file under `directories` (each a directory of compiled code), as normalised lines.
    static func compiledSources(in directories: [String]) throws -> [(path: String, lines: [String])] {
        var sources: [(path: String, lines: [String])] = []
        for directory in directories {
            let base = root.appendingPathComponent(directory)
            let files =
                FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
            for file in files {
                sources.append((file.path, normalisedLines(try String(contentsOf: file, encoding: .utf8))))
            }
        }
        return sources
    }

    /// The ```swift blocks of a Markdown document, as normalised lines.
    static func swiftBlocks(in markdown: String) -> [[String]] {
        markdown.matches(of: /```swift\n((?:.|\n)*?)```/).map { normalisedLines($0.1) }
    }

    /// Every function and type name declared in the test sources.
    static func declaredNames() throws -> (functions: Set<String>, types: Set<String>) {
        var functions: Set<String> = []
        var types: Set<String> = []
        let tests = root.appendingPathComponent("Tests")
        let files =
            FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)?
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
        let scenarios = Set(
            try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Docs/scenarios").path)
        )
        for document in ["Docs/BehaviourMatrix.md", "README.md"] + (try Self.markdownFiles(in: Self.catalog)) {
            // Scenario files are named alone or under Docs/scenarios/; other paths are not scenarios.
            let names = try Self.text(document).matches(of: /[\w\/-]+\.json/).map { String($0.0) }
                .filter { !$0.contains("/") || $0.hasPrefix("Docs/scenarios/") }.map {
                    ($0 as NSString).lastPathComponent
                }
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
            let kept = title.unicodeScalars.filter {
                CharacterSet.alphanumerics.contains($0) || $0 == " " || $0 == "-" || $0 == "_"
            }
            anchors.insert(String(String.UnicodeScalarView(kept)).replacingOccurrences(of: " ", with: "-"))
        }
        return anchors
    }

    @Test func everyLinkToAHeadingFindsIt() throws {
        for document in ["README.md"] + (try Self.markdownFiles(in: "Docs")) {
            let text = try Self.text(document)
            var broken: [String] = []
            for match in text.matches(of: /\]\(([\w.]*\.md)?#([^)]+)\)/) {
                let target = match.1.map { "Docs/\($0)" } ?? document
                if !Self.anchors(of: try Self.text(target)).contains(String(match.2)) {
                    broken.append("\(target)#\(match.2)")
                }
            }
            #expect(broken.isEmpty, "\(document) links to headings that do not exist: \(broken)")
        }
    }

    /// A snippet's lines without indentation or blank lines.
    static func normalisedLines(_ text: some StringProtocol) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Whether `block` appears, line for line, in one of `sources`.
    static func isCompiled(_ block: [String], in sources: [(path: String, lines: [String])]) -> Bool {
        sources.contains { source in
            source.lines.indices.contains { start in source.lines[start...].starts(with: block) }
        }
    }

    @Test func everySwiftSnippetOfTheDocumentationIsCompiledCode() throws {
        let sources = try Self.compiledSources(in: ["Tests", "Examples"])
        var compiledBlocks = 0
        for document in try Self.documentsWithSnippets() {
            let blocks = Self.swiftBlocks(in: try Self.text(document))
            if Self.snippetsAwaitingTheirAPI.contains(document) {
                #expect(!blocks.isEmpty, "\(document) has no Swift snippet: take it off snippetsAwaitingTheirAPI")
                let compiled = blocks.filter { Self.isCompiled($0, in: sources) }
                #expect(
                    compiled.isEmpty,
                    "a snippet of \(document) compiles now: take the article off snippetsAwaitingTheirAPI (and its note off the article)"
                )
                continue
            }
            for block in blocks {
                compiledBlocks += 1
                #expect(
                    Self.isCompiled(block, in: sources),
                    "this snippet of \(document) is not in any test or example line for line (paste it there, then compile):\n\(block.joined(separator: "\n"))"
                )
            }
        }
        #expect(compiledBlocks >= 10, "the documents' Swift snippets were not found")
    }

    @Test func everyFileTheDocumentationNamesExists() throws {
        let documents =
            ["README.md"] + (try Self.markdownFiles(in: "Docs")) + (try Self.markdownFiles(in: Self.catalog))
        var missing: [String] = []
        for document in documents {
            let text = try Self.text(document)
            let directory = (document as NSString).deletingLastPathComponent
            // Relative Markdown links: [text](path) and [text](path#heading); an image of a
            // DocC article, ![text](name.svg), is one of the catalog's resources.
            for match in text.matches(of: /(!?)\[[^\]]*\]\(([^)<>#:\s]+)(#[^)]*)?\)/) {
                let path = String(match.2)
                let isCatalogImage = !match.1.isEmpty && document.hasPrefix(Self.catalog)
                let base = isCatalogImage ? "\(Self.catalog)/Resources" : directory
                let resolved = ((base as NSString).appendingPathComponent(path) as NSString).standardizingPath
                // DocC finds `name.png` as `name@2x.png` too: a picture taken at twice its size.
                let candidates = [resolved] + (isCatalogImage ? [Self.doubleSizeVariant(of: resolved)] : [])
                if !candidates.contains(where: {
                    FileManager.default.fileExists(atPath: Self.root.appendingPathComponent($0).path)
                }) {
                    missing.append("\(document): \(path)")
                }
            }
            // Repository paths named in code voice: `Docs/Sandbox.md`, `Docs/scenarios/`.
            for match in text.matches(of: /`((?:Docs|Sources|Tests|Examples|API)\/[\w.\/-]+)`/) {
                let path = String(match.1)
                if !FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path) {
                    missing.append("\(document): \(path)")
                }
            }
        }
        #expect(missing.isEmpty, "documents name files that do not exist: \(missing)")
    }

    /// `Resources/name@2x.png` for `Resources/name.png`.
    static func doubleSizeVariant(of path: String) -> String {
        let name = path as NSString
        return "\(name.deletingPathExtension)@2x.\(name.pathExtension)"
    }

    /// The built documentation is read where the repository is not: it may name no file of
    /// `Docs/`, which it cannot link to. What a reader of the SDK's documentation needs is
    /// in the catalog; a page for the repository's readers is named in words, as such.
    @Test func noArticleNamesAFileOfTheRepositorysDocs() throws {
        var named: [String] = []
        for article in try Self.markdownFiles(in: Self.catalog) {
            for (number, line) in try Self.text(article).split(separator: "\n", omittingEmptySubsequences: false)
                .enumerated()
            where line.contains("Docs/") {
                named.append("\(article):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(
            named.isEmpty,
            "DocC articles name files of Docs/, which the built documentation cannot link:\n\(named.joined(separator: "\n"))"
        )
    }

    /// Every picture of the catalog is shown by an article, and every sequence diagram comes
    /// from a source in Docs/diagrams (`.ci/diagrams` checks that the two agree).
    @Test func everyPictureOfTheCatalogIsShownAndEveryDiagramHasItsSource() throws {
        let resources = Self.root.appendingPathComponent("\(Self.catalog)/Resources")
        let pictures = try FileManager.default.contentsOfDirectory(atPath: resources.path).filter {
            $0.hasSuffix(".svg") || $0.hasSuffix(".png")
        }
        #expect(pictures.count >= 5, "the catalog's pictures were not found")
        let articles = try Self.markdownFiles(in: Self.catalog).map { try Self.text($0) }.joined(separator: "\n")
        for picture in pictures {
            let shown = picture.replacingOccurrences(of: "@2x.", with: ".")
            #expect(articles.contains("](\(shown))"), "no article shows \(picture)")
            if picture.hasSuffix(".svg") {
                let source = "Docs/diagrams/\((picture as NSString).deletingPathExtension).seq"
                #expect(
                    FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(source).path),
                    "\(picture) has no source \(source)")
            }
        }
    }

    @Test func everyArticleIsLinkedFromDocs() throws {
        let links = try (["README.md"] + Self.markdownFiles(in: "Docs")).map { try Self.text($0) }.joined()
        // Articles only: the landing page and the pages that extend a symbol's are titled ``Symbol``.
        for article in try Self.markdownFiles(in: Self.catalog) where !(try Self.text(article)).hasPrefix("# ``") {
            let name = (article as NSString).lastPathComponent
            #expect(
                links.contains("AccessEnabler.docc/\(name)"), "no document under Docs/ or README links to \(article)")
        }
    }

    @Test func theChangelogsNewestEntryIsTheSDKVersion() throws {
        let changelog = try Self.text("Docs/CHANGELOG.md")
        let newest = try #require(changelog.firstMatch(of: /\n## \[?(\d+\.\d+\.\d+)/), "Docs/CHANGELOG.md has no entry")
        #expect(AccessEnabler.getVersion() == String(newest.1))
        #expect(AccessEnablerConfiguration().userAgent == "AccessEnabler-Linux/\(AccessEnabler.getVersion())")
    }
}
