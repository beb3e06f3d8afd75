import AccessEnablerScenarios
import Foundation
import Testing

/// Where a file stops being JSON, as the command line reports it for a world or scenario
/// file: line, column and what was found, for the usual slips of hand editing.
@Suite struct JSONSyntaxTests {
    private func problem(_ text: String) -> String? {
        JSONSyntax.firstProblem(in: Data(text.utf8))?.description
    }

    @Test func validJSONHasNoProblem() throws {
        for text in [
            #"{"a": [1, -2.5e3, true, false, null, "x\n\u00e9é"], "b": {}}"#, "[]", " 0 ", #""just a string""#,
            "\u{FEFF}{}",
        ] {
            #expect(problem(text) == nil, "\(text)")
            // The check agrees with Foundation's parser on what is JSON.
            #expect(
                (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) != nil,
                "\(text)")
        }
    }

    @Test func proseIsNotJSON() {
        #expect(problem("hello world") == "line 1, column 1: expected a value, found 'hello'")
        #expect(problem("<html>") == "line 1, column 1: expected a value, found '<'")
    }

    @Test func emptyTextIsNotJSON() {
        #expect(problem("") == "line 1, column 1: the text is empty: expected a JSON value")
        #expect(problem("  \n ") == "line 2, column 2: the text is empty: expected a JSON value")
    }

    @Test func aMissingCommaIsFoundOnItsLine() {
        #expect(
            problem("{\"steps\": [\n  {\"setRequestor\": \"REF30\"}\n  {\"logout\": {}}\n]}")
                == "line 3, column 3: expected ',' or ']' after an element, found '{'")
        #expect(problem("{\"a\": 1\n \"b\": 2}") == "line 2, column 2: expected ',' or '}' after a member, found '\"'")
    }

    @Test func commonSlips() {
        #expect(problem(#"{"a": tru}"#) == "line 1, column 7: expected a value, found 'tru'")
        #expect(problem(#"{a: 1}"#) == "line 1, column 2: expected a member name in double quotes, found 'a'")
        #expect(problem(#"{"a": 1,}"#) == "line 1, column 9: expected a member name in double quotes, found '}'")
        #expect(problem(#"{"a" 1}"#) == "line 1, column 6: expected ':' after a member name, found '1'")
        #expect(problem(#"{"a": 'x'}"#) == "line 1, column 7: expected a value, found '''")
        #expect(problem(#"{"a": 01}"#) == "line 1, column 7: a number may not start with 0")
        #expect(problem(#"{"a": 1.}"#) == "line 1, column 9: expected a digit after the decimal point, found '}'")
        #expect(problem(#"{"a": "\q"}"#) == "line 1, column 8: unknown escape \\q in a string")
        #expect(
            problem("{\"a\": \"tab\there\"}")
                == "line 1, column 11: a control character (U+0009) inside a string: write it as an escape")
        #expect(problem(#"{"a": 1} x"#) == "line 1, column 10: 'x' after the end of the JSON value")
    }

    @Test func anUnfinishedDocumentNamesTheEnd() {
        #expect(
            problem(#"{"a": 1"#) == "line 1, column 8: expected ',' or '}' after a member, found the end of the text")
        #expect(problem(#"{"a": "open"#) == "line 1, column 7: a string that is never closed (no ending double quote)")
        #expect(problem(#"["#) == "line 1, column 2: unexpected end of the text: expected a value")
    }

    @Test func columnsCountCharactersNotBytes() {
        #expect(problem("{\"é\": x}") == "line 1, column 7: expected a value, found 'x'")
    }

    @Test func bytesThatAreNotUTF8AreNamed() {
        var data = Data("{\"a\": \"".utf8)
        data.append(contentsOf: [0xFF, 0x22, 0x7D])
        #expect(JSONSyntax.firstProblem(in: data)?.description == "line 1, column 8: the text is not UTF-8 (byte 0xFF)")
    }

    @Test func deepNestingIsRefusedNotRecursedInto() {
        let deep = String(repeating: "[", count: JSONSyntax.maximumDepth + 1)
        #expect(
            problem(deep)
                == "line 1, column \(JSONSyntax.maximumDepth + 1): nested more than \(JSONSyntax.maximumDepth) levels deep"
        )
    }
}
