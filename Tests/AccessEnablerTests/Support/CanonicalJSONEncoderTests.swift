import Foundation
import Testing

@testable import AccessEnabler

/// The SDK's canonical JSON is byte for byte what `JSONEncoder` wrote for the same values
/// (sorted keys, slashes not escaped, dates as seconds since 1970), so the files earlier
/// builds wrote verify and read alike.
@Suite struct CanonicalJSONEncoderTests {
    /// The encoder earlier builds wrote the storage files with.
    private static func reference<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private static func canonical<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try CanonicalJSONEncoder.encode(value), as: UTF8.self)
    }

    private static func expectSame<T: Encodable>(
        _ value: T, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(try canonical(value) == reference(value), sourceLocation: sourceLocation)
    }

    @Test func everyStoredRecordEncodesAsBefore() throws {
        var record = RequestorRecord(requestor: "REF30")
        record.profile = StorageSamples.profile()
        record.standby = StorageSamples.profile(mvpd: "MVPD2")
        record.others = [StorageSamples.profile(mvpd: "MVPD3")]
        record.pendingLogouts = [PendingLogout(mvpd: "MVPD1", serviceProviderURL: "https://sp.auth.adobe.com/a/b")]
        record.rememberedProvider = StorageSamples.provider()
        record.configuration = StorageSamples.configuration
        record.authorizations = [
            "res1": StorageSamples.authorization(), "Res/2": StorageSamples.authorization(resource: "Res/2"),
        ]
        record.preauthorizations = StorageSamples.preauthorizations
        try Self.expectSame(record)
        try Self.expectSame(["REF30": record, "ref30": RequestorRecord(requestor: "ref30")])
        try Self.expectSame(StorageSamples.credentials)
        try Self.expectSame(StorageSamples.token)
        try Self.expectSame(
            StoredServiceProviderClient(
                baseURL: "https://sp.example/x", credentials: StorageSamples.credentials,
                accessToken: StorageSamples.token))
    }

    @Test func scalarsAndContainersEncodeAsBefore() throws {
        enum Kind: String, Codable { case first, second }
        struct Everything: Codable {
            var text = "plain"
            var flag = true
            var whole = -42
            var small: Int8 = -8
            var wide: UInt64 = .max
            var fraction = 0.1
            var tiny = 1e-7
            var huge = 1.2345678901234568e+20
            var negativeZero = -0.0
            var single: Float = 0.1
            var date = Date(timeIntervalSince1970: 1_795_898_211.478_799_8)
            var wholeDate = Date(timeIntervalSince1970: 1_767_225_600)
            var url = URL(string: "https://a.example/b?c=d&e=%20")!
            var data = Data([0, 1, 2, 250, 255])
            var missing: String? = nil
            var kind = Kind.second
            var nested = ["z": [1, 2], "a": [], "M": [3]]
            var optionals: [Int?] = [1, nil, 3]
            var matrix = [[1.5, 2], [], [3]]
            var empty: [String: Int] = [:]
        }
        try Self.expectSame(Everything())
        try Self.expectSame([Everything(), Everything()])
        try Self.expectSame("top-level string")
        try Self.expectSame(12.0)
    }

    @Test func stringsEscapeAsBefore() throws {
        var everyASCII = ""
        for scalar in 0..<0x80 { everyASCII.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
        try Self.expectSame([everyASCII, "é ü ß 漢字 😀 \u{2028}\u{2029} \u{FEFF}", #"a/b\c"d"#, ""])
        // Keys are escaped as values are, and sorted by their bytes.
        try Self.expectSame([
            "b": 1, "B": 2, "a10": 3, "a9": 4, "é": 5, "e": 6, "Z": 7, "_": 8, "https://x.test/a": 9, "a\"q": 10,
            "a\nb": 11, "": 12,
        ])
        // Every pair of characters, as values and as keys.
        let alphabet: [Unicode.Scalar] = (0..<0x80).map { Unicode.Scalar(UInt8($0)) } + ["é", "漢", "😀", "\u{7F}"]
        var pairs: [String: String] = [:]
        for first in alphabet {
            for second in alphabet {
                var text = ""
                text.unicodeScalars.append(contentsOf: [first, second])
                pairs[text] = text
            }
        }
        try Self.expectSame(pairs)
    }

    @Test func aKeyEncodedTwiceKeepsItsLastValue() throws {
        struct Twice: Encodable {
            enum Key: String, CodingKey { case value, other }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(1, forKey: .value)
                try container.encode("x", forKey: .other)
                try container.encode(2, forKey: .value)
            }
        }
        #expect(try Self.canonical(Twice()) == #"{"other":"x","value":2}"#)
    }

    @Test func aNumberJSONCannotHoldIsRefused() {
        #expect(throws: EncodingError.self) { _ = try CanonicalJSONEncoder.encode(["n": Double.nan]) }
        #expect(throws: EncodingError.self) { _ = try CanonicalJSONEncoder.encode([Double.infinity]) }
    }
}
