import Foundation
import Testing

@testable import PassSandbox

@Suite("Core building blocks")
struct SandboxCoreTests {
    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func sha256AndHMACMatchPublishedVectors() {
        #expect(
            hex(SandboxHMAC.sha256(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(SandboxHMAC.sha256([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(hex(SandboxHMAC.sha256(long)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // RFC 4231, test case 2.
        #expect(
            SandboxHMAC.hexAuthenticationCode(key: Array("Jefe".utf8), text: "what do ya want for nothing?")
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func isoTimeMatchesFoundation() {
        #expect(SandboxEngine.isoTime(Date(timeIntervalSince1970: 1_767_225_600)) == "2026-01-01T00:00:00Z")
        for seconds in [0, 951_782_399, 1_709_210_096, 4_102_444_799] as [TimeInterval] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(SandboxEngine.isoTime(date) == ISO8601DateFormatter().string(from: date))
        }
    }

    @Test func jsonEscapesAndKeepsKeyOrder() {
        let value = SandboxJSON.object(
            ("b", .string("q\"\\\n\u{01}")), ("a", .int(-3)), ("skipped", nil), ("c", .array([.bool(true), .null])))
        #expect(String(decoding: value.bytes, as: UTF8.self) == #"{"b":"q\"\\\n\u0001","a":-3,"c":[true,null]}"#)
    }

    @Test func clientJSONIsEchoedFaithfully() throws {
        let parsed = try JSONSerialization.jsonObject(
            with: Data(#"{"b":true,"a":1,"c":1.5,"d":["x",null]}"#.utf8), options: [])
        #expect(
            String(decoding: SandboxJSON(foundation: parsed).bytes, as: UTF8.self)
                == #"{"a":1,"b":true,"c":1.5,"d":["x",null]}"#)
    }

    @Test func routesParseTheDocumentedPaths() {
        #expect(
            SandboxRoute(method: "POST", path: "/api/v2/REF30/sessions/ABC1234")
                == .resumeSession(serviceProvider: "REF30", code: "ABC1234"))
        #expect(
            SandboxRoute(method: "GET", path: "/api/v2/REF30/sessions/ABC1234")
                == .sessionInformation(serviceProvider: "REF30", code: "ABC1234"))
        #expect(
            SandboxRoute(method: "GET", path: "/api/v2/authenticate/REF30/ABC1234")
                == .authenticate(serviceProvider: "REF30", code: "ABC1234"))
        #expect(
            SandboxRoute(method: "POST", path: "/api/v2/REF30/decisions/preauthorize/X")
                == .preauthorize(serviceProvider: "REF30", mvpd: "X"))
        #expect(
            SandboxRoute(method: "GET", path: "/api/v2/REF30/profiles/code/C")
                == .profileForCode(serviceProvider: "REF30", code: "C"))
        #expect(
            SandboxRoute(method: "POST", path: "/api/v2/REF30/profiles/sso/Apple")
                == .partnerProfile(serviceProvider: "REF30", partner: "Apple"))
        #expect(SandboxRoute(method: "GET", path: "/api/v2/REF30") == nil)
        #expect(SandboxRoute(method: "GET", path: "/") == nil)
    }

    @Test func theManualClockMovesOnlyWhenTold() {
        let clock = SandboxClock()
        let start = clock.now
        #expect(clock.isManual)
        clock.advance(by: 90)
        #expect(clock.now == start.addingTimeInterval(90))
        clock.now = start
        #expect(clock.now == start)
        let wall = SandboxClock.system
        #expect(!wall.isManual)
        wall.advance(by: 3_600)
        #expect(wall.now > Date().addingTimeInterval(3_500))
    }
}
