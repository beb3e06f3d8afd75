import Foundation
import Testing

@testable import AccessEnabler

/// How a request is handed to libcurl: its method, its headers as spelt (libcurl's own
/// additions turned off), and what is refused before anything is sent.
@Suite struct CurlRequestPlanTests {
    private func plan(_ request: HTTPRequestMessage, timeout: TimeInterval = 5) -> Result<
        CurlRequestPlan, TransportFailure
    > {
        CurlRequestPlan.make(for: request, timeout: timeout)
    }

    private let base = URL(string: "http://127.0.0.1:9/api/v2/REF30/configuration")!

    @Test func aGetSendsItsHeadersInOrderAndTurnsOffLibcurlsAdditions() throws {
        let made = try plan(
            HTTPRequestMessage(
                method: "GET", url: base,
                headers: [("Accept", "application/json"), ("X-Empty", ""), ("AP-Device-Identifier", "fingerprint x")])
        )
        .get()
        #expect(made.method == .get)
        #expect(made.body == nil)
        #expect(
            made.headerLines == [
                "Accept: application/json", "X-Empty;", "AP-Device-Identifier: fingerprint x", "Expect:",
                "Content-Type:",
            ])
        #expect(made.timeoutMilliseconds == 5_000)
        #expect(made.url == base.absoluteString)
    }

    @Test func methodsAndBodies() throws {
        let form = Data("a=1".utf8)
        let post = try plan(
            HTTPRequestMessage(
                method: "POST", url: base, headers: [("Content-Type", "application/x-www-form-urlencoded")], body: form)
        ).get()
        #expect(post.method == .post)
        #expect(post.body == form)
        #expect(post.headerLines == ["Content-Type: application/x-www-form-urlencoded", "Expect:"])
        // A POST without a body still sends one (empty), as URLSession does: Content-Length: 0.
        #expect(try plan(HTTPRequestMessage(method: "POST", url: base)).get().body == Data())
        #expect(try plan(HTTPRequestMessage(method: "DELETE", url: base)).get().method == .custom("DELETE"))
        let deleteWithBody = try plan(HTTPRequestMessage(method: "DELETE", url: base, body: form)).get()
        #expect(deleteWithBody.method == .custom("DELETE") && deleteWithBody.body == form)
        #expect(try plan(HTTPRequestMessage(method: "HEAD", url: base)).get().method == .head)
        #expect(try plan(HTTPRequestMessage(method: "GET", url: base, body: form)).get().method == .custom("GET"))
    }

    @Test(arguments: [
        ("X-Injected", "a\r\nSet-Cookie: x=1"), ("X-Line", "a\nb"), ("X-Nul", "a\u{0}b"), ("Bad Name", "x"), ("", "x"),
        ("X:Colon", "x"),
    ])
    func headersThatCannotBeSentAreRefused(name: String, value: String) {
        guard
            case .failure(.other(let reason)) = plan(
                HTTPRequestMessage(method: "GET", url: base, headers: [(name, value)]))
        else {
            Issue.record("\(name.debugDescription): \(value.debugDescription) was planned")
            return
        }
        #expect(
            !reason.contains(value) || value.isEmpty || name == "Bad Name" || name == "X:Colon",
            "the value is not repeated: \(reason)")
    }

    @Test func onlyHTTPAndHTTPSAreSent() {
        for url in ["file:///etc/passwd", "ftp://127.0.0.1/x", "gopher://127.0.0.1/"] {
            guard case .failure(.cannotConnect) = plan(HTTPRequestMessage(method: "GET", url: URL(string: url)!)) else {
                Issue.record("\(url) was planned")
                continue
            }
        }
        #expect((try? plan(HTTPRequestMessage(method: "GET", url: URL(string: "HTTPS://example.com/")!)).get()) != nil)
        guard case .failure = plan(HTTPRequestMessage(method: "GE T", url: base)) else {
            Issue.record("a method with a space was planned")
            return
        }
    }

    @Test func timeoutsAndLimitsFromAnyNumberNeverTrap() throws {
        for timeout in [0, -1, .nan, .infinity, 1e300, 0.0004, 2.0001] {
            let made = try plan(HTTPRequestMessage(method: "GET", url: base), timeout: timeout).get()
            #expect(made.timeoutMilliseconds >= 1, "\(timeout)")
        }
        #expect(
            try plan(HTTPRequestMessage(method: "GET", url: base), timeout: 2.0001).get().timeoutMilliseconds == 2_001)
        #expect(try plan(HTTPRequestMessage(method: "GET", url: base, maximumResponseBodySize: -5)).get().limit == 0)
        #expect(
            try plan(HTTPRequestMessage(method: "GET", url: base, maximumResponseBodySize: 4096)).get().limit == 4096)
    }
}
