import Foundation
import Testing

@testable import AccessEnabler

/// The libcurl transport's head reader: the final head of any sequence of lines libcurl can
/// hand over, and no trap on any bytes.
@Suite struct ResponseHeadReaderTests {
    private func read(_ lines: [String]) -> (ResponseHeadReader, [ResponseHeadReader.Verdict]) {
        var reader = ResponseHeadReader()
        let verdicts = lines.map { reader.read(line: Array($0.utf8)) }
        return (reader, verdicts)
    }

    @Test func aPlainHeadIsRead() throws {
        let (reader, verdicts) = read([
            "HTTP/1.1 200 OK\r\n", "Content-Type: application/json\r\n", "Date:   Mon, 02 Jan 2026 10:00:00 GMT  \r\n",
            "\r\n",
        ])
        #expect(verdicts.allSatisfy { $0 == .proceed })
        let head = try #require(reader.head)
        #expect(head.status == 200)
        #expect(head.fields.map(\.name) == ["Content-Type", "Date"])
        #expect(head.fields.map(\.value) == ["application/json", "Mon, 02 Jan 2026 10:00:00 GMT"])
    }

    @Test func informationalHeadsAreDroppedAndTheFinalOneKept() throws {
        let (reader, _) = read([
            "HTTP/1.1 100 Continue\r\n", "\r\n", "HTTP/1.1 103 Early Hints\r\n", "Link: </style.css>; rel=preload\r\n",
            "\r\n",
            "HTTP/1.1 201 Created\r\n", "Location: /x\r\n", "\r\n",
        ])
        let head = try #require(reader.head)
        #expect(head.status == 201)
        #expect(head.fields.map(\.name) == ["Location"])
        #expect(reader.informationalCount == 2)
    }

    @Test func trailersAfterTheHeadAreCountedAndDropped() throws {
        let (reader, verdicts) = read([
            "HTTP/1.1 200 OK\r\n", "Transfer-Encoding: chunked\r\n", "\r\n", "Server-Timing: db;dur=53\r\n", "\r\n",
        ])
        #expect(verdicts.allSatisfy { $0 == .proceed })
        #expect(try #require(reader.head).fields.map(\.name) == ["Transfer-Encoding"])
        #expect(reader.trailerCount == 1)
    }

    @Test func aHeadCutBeforeItsBlankLineIsNotComplete() {
        let (reader, _) = read(["HTTP/1.1 200 OK\r\n", "Content-Type: application/json\r\n"])
        #expect(reader.head == nil)
        let (informational, _) = read(["HTTP/1.1 100 Continue\r\n", "\r\n"])
        #expect(informational.head == nil, "a 100 Continue alone is no answer")
    }

    @Test(arguments: [
        "HTTP/1.1 200 OK", "HTTP/1.0 404 Not Found", "HTTP/2 204", "HTTP/3 500 ", "HTTP/1.1 302 Found with spaces",
    ])
    func statusLinesThatAreHTTP(line: String) {
        #expect(ResponseHeadReader.status(ofStatusLine: Array(line.utf8)) != nil, "\(line)")
    }

    @Test(arguments: [
        "HTTP/1.1", "HTTP/1.1 ", "HTTP/1.1 20", "HTTP/1.1 2000 OK", "HTTP/1.1 2x0 OK", "HTTP/ 200 OK",
        "HTTP/1..1 200 OK",
        "HTTP/1.1.1 200", "HTTP/123 200 OK", "HTTP/1.1\t200 OK", "HTTP/1.1 -20 OK", "HTTP/a.b 200",
    ])
    func statusLinesThatAreNot(line: String) {
        #expect(ResponseHeadReader.status(ofStatusLine: Array(line.utf8)) == nil, "\(line)")
        var reader = ResponseHeadReader()
        if case .proceed = reader.read(line: Array((line + "\r\n").utf8)) {
            Issue.record("\(line) was taken for a status line")
        }
    }

    @Test func aFieldBeforeAnyStatusLineIsRefused() {
        var reader = ResponseHeadReader()
        guard case .refuse = reader.read(line: Array("Content-Type: text/html\r\n".utf8)) else {
            Issue.record("a field line came first and was taken")
            return
        }
    }

    @Test func fieldsWithoutAValidNameAreSkippedAndFoldedLinesContinue() throws {
        let (reader, _) = read([
            "HTTP/1.1 200 OK\r\n", ": no name\r\n", "bad name: x\r\n", "no colon\r\n", "X-Long: first\r\n",
            "  second\r\n", "\tthird\r\n", "Empty:\r\n",
            "\r\n",
        ])
        let head = try #require(reader.head)
        #expect(head.fields.map(\.name) == ["X-Long", "Empty"])
        #expect(head.fields.map(\.value) == ["first second third", ""])
    }

    @Test func bytesThatAreNotUTF8AreReadAsLatin1() throws {
        var reader = ResponseHeadReader()
        _ = reader.read(line: Array("HTTP/1.1 200 OK\r\n".utf8))
        _ = reader.read(line: Array("X-Name: caf".utf8) + [0xE9, 0xFF, 0x00, 0x80] + Array("\r\n".utf8))
        _ = reader.read(line: Array("X-UTF8: caf\u{e9}\r\n".utf8))
        _ = reader.read(line: [0x0D, 0x0A])
        let head = try #require(reader.head)
        #expect(head.fields[0].value == "caf\u{e9}\u{ff}\u{0}\u{80}")
        #expect(head.fields[1].value == "caf\u{e9}")
    }

    @Test func aHeadLongerThanTheBoundIsRefused() {
        var reader = ResponseHeadReader()
        _ = reader.read(line: Array("HTTP/1.1 200 OK\r\n".utf8))
        let field = Array(("X-Filler: " + String(repeating: "a", count: 8 * 1024) + "\r\n").utf8)
        var refused = false
        for _ in 0..<40 where !refused {
            if case .refuse = reader.read(line: field) { refused = true }
        }
        #expect(refused)
    }

    /// Every line libcurl could hand over, cut anywhere, in any order: the reader never
    /// traps and never reports a head without its blank line.
    @Test func anyBytesAnyOrderNeverTrap() {
        let text =
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-\u{e9}: "
            + "\u{ff}\r\n\r\nServer-Timing: a\r\n\r\n"
        let answer = Array(text.utf8)
        var generator = SeededGenerator(seed: 33)
        for _ in 0..<2_000 {
            var reader = ResponseHeadReader()
            var start = 0
            while start < answer.count {
                let end = min(answer.count, start + Int.random(in: 1...24, using: &generator))
                var line = Array(answer[start..<end])
                if Bool.random(using: &generator) {
                    line[Int.random(in: 0..<line.count, using: &generator)] = UInt8.random(
                        in: 0...255, using: &generator)
                }
                _ = reader.read(line: line)
                start = end
            }
        }
        for cut in 0..<answer.count {
            var reader = ResponseHeadReader()
            _ = reader.read(line: Array(answer[..<cut]))
            #expect(reader.head == nil)
        }
    }
}
