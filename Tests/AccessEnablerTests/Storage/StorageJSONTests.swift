import Foundation
import Testing

@testable import AccessEnabler

@Suite("Storage: JSONValue")
struct StorageJSONTests {
    @Test("Every JSON value survives encoding and decoding")
    func roundTrip() throws {
        let value: JSONValue = .object([
            "name": .string("Jane \"J\" Doe"), "age": .number(42), "ratio": .number(0.125),
            "member": .bool(true), "nickname": .null,
            "zips": .array([.string("10001"), .number(94_105), .bool(false)]),
        ])
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONValue.self, from: data) == value)
        #expect(
            try JSONValue(jsonData: Data(#"[1,"a",null,{"b":false}]"#.utf8))
                == .array([.number(1), .string("a"), .null, .object(["b": .bool(false)])]))
    }

    @Test("Foundation values keep Booleans apart from the numbers 0 and 1")
    func fromFoundation() throws {
        let parsed = try JSONSerialization.jsonObject(
            with: Data(#"{"t":true,"one":1,"zero":0,"f":false,"d":2.5,"n":null}"#.utf8))
        #expect(
            JSONValue(any: parsed)
                == .object([
                    "t": .bool(true), "one": .number(1), "zero": .number(0), "f": .bool(false), "d": .number(2.5),
                    "n": .null,
                ]))
        #expect(JSONValue(any: true) == .bool(true))
        #expect(JSONValue(any: 1) == .number(1))
        #expect(
            JSONValue(any: ["a": [1, "x"]] as [String: Any]) == .object(["a": .array([.number(1), .string("x")])]))
        #expect(JSONValue(any: Date()) == nil)
    }

    @Test("Foundation view of a value")
    func foundationValue() {
        let value = JSONValue.object(["a": .array([.string("x"), .bool(true), .null])]).foundationValue
        let object = value as? [String: Any]
        let array = object?["a"] as? [Any]
        #expect(array?[0] as? String == "x")
        #expect(array?[1] as? Bool == true)
        #expect(array?[2] is NSNull)
    }
}
