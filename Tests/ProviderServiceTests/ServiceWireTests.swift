import AccessEnablerProviderService
import Foundation
import Testing

/// The service's reading and writing of its line protocol: what a request line may be, what
/// each refusal says, and the shape of every answer and event line.
@Suite struct ServiceWireTests {
    static let news = AppIdentity(requestor: "REF30", name: "News")!

    private func parse(_ text: String) -> Result<(RequestID, ServiceRequest), ServiceWire.Refusal> {
        ServiceWire.request(Array(text.utf8))
    }

    private func refusal(_ text: String) -> ServiceWire.Refusal? {
        if case .failure(let refusal) = parse(text) { return refusal }
        return nil
    }

    @Test func theRequestsOfTheProtocolPage() throws {
        let cases: [(String, RequestID, ServiceRequest)] = [
            (#"{"id":1,"op":"hello"}"#, .number(1), .hello),
            (
                #"{"v":1,"id":"a","op":"accessStatus","app":{"requestor":"REF30","name":"News"},"prompt":true}"#,
                .string("a"), .accessStatus(Self.news, prompt: true)
            ),
            (
                #"{"id":2,"op":"accessStatus","app":{"requestor":"REF30","name":"News"}}"#, .number(2),
                .accessStatus(Self.news, prompt: false)
            ),
            (#"{"id":3,"op":"subscribe"}"#, .number(3), .subscribe),
            (
                #"{"id":4,"op":"grant","app":{"requestor":"REF30","name":"News"}}"#, .number(4),
                .changePermission(Self.news, .grant)
            ),
            (#"{"id":5,"op":"signOut"}"#, .number(5), .signOut),
            (
                #"{"id":6,"op":"signIn","supportedAccountProviderIdentifiers":["A","B"]}"#, .number(6),
                .signIn(supported: ["A", "B"], featured: [])
            ),
            (
                #"{"id":7,"op":"accountMetadata","app":{"requestor":"REF30","name":"News"},"#
                    + #""isInterruptionAllowed":true,"#
                    + #""supportedAccountProviderIdentifiers":["AppleBoarded"],"#
                    + #""featuredAccountProviderIdentifiers":["AppleBoarded"],"#
                    + #""samlRequest":"PHNhbWw+","waitSeconds":120,"includeAuthenticationExpirationDate":false}"#,
                .number(7),
                .accountMetadata(
                    Self.news,
                    .init(
                        isInterruptionAllowed: true, includeAuthenticationExpirationDate: false,
                        supportedAccountProviderIdentifiers: ["AppleBoarded"],
                        featuredAccountProviderIdentifiers: ["AppleBoarded"], samlRequest: "PHNhbWw+", waitSeconds: 120)
                )
            ),
        ]
        for (line, id, request) in cases {
            let (parsedID, parsedRequest) = try parse(line).get()
            #expect(parsedID == id, "\(line)")
            #expect(parsedRequest == request, "\(line)")
        }
    }

    @Test func aLineThatIsNotARequestIsAnsweredWithWhatIsWrong() {
        let cases: [(String, ServiceError.Code, RequestID?)] = [
            ("hello", .badRequest, nil),
            ("[1,2]", .badRequest, nil),
            (#"{"op":"hello"}"#, .badRequest, nil),
            (#"{"id":true,"op":"hello"}"#, .badRequest, nil),
            (#"{"id":1.5,"op":"hello"}"#, .badRequest, nil),
            (#"{"id":1e300,"op":"hello"}"#, .badRequest, nil),
            (#"{"id":1}"#, .badRequest, .number(1)),
            (#"{"id":1,"v":2,"op":"hello"}"#, .unsupportedVersion, .number(1)),
            (#"{"id":1,"op":"launch"}"#, .unknownOperation, .number(1)),
            (#"{"id":1,"op":"accessStatus"}"#, .badRequest, .number(1)),
            (#"{"id":1,"op":"accessStatus","app":{"requestor":"","name":"News"}}"#, .badRequest, .number(1)),
            (#"{"id":1,"op":"accessStatus","app":{"requestor":"REF30","name":"a\u0007b"}}"#, .badRequest, .number(1)),
            (
                #"{"id":1,"op":"accessStatus","app":{"requestor":"REF30","name":"News"},"prompt":1}"#, .badRequest,
                .number(1)
            ),
            (
                #"{"id":1,"op":"accountMetadata","app":{"requestor":"REF30","name":"News"},"waitSeconds":-1}"#,
                .badRequest, .number(1)
            ),
            (
                #"{"id":1,"op":"accountMetadata","app":{"requestor":"REF30","name":"News"},"waitSeconds":1e9}"#,
                .badRequest, .number(1)
            ),
            (
                #"{"id":1,"op":"accountMetadata","app":{"requestor":"REF30","name":"News"},"waitSeconds":"60"}"#,
                .badRequest, .number(1)
            ),
            (
                #"{"id":1,"op":"accountMetadata","app":{"requestor":"REF30","name":"News"},"#
                    + #""supportedAccountProviderIdentifiers":[1]}"#,
                .badRequest, .number(1)
            ),
        ]
        for (line, code, id) in cases {
            let found = refusal(line)
            #expect(found?.error.code == code, "\(line)")
            #expect(found?.id == id, "\(line)")
            #expect(found?.error.message.isEmpty == false, "\(line)")
        }
    }

    @Test func aLineLongerThanTheLimitIsRefusedUnread() {
        let long = [UInt8](repeating: UInt8(ascii: " "), count: ServiceWire.maximumLineLength + 1)
        guard case .failure(let refusal) = ServiceWire.request(long) else { Issue.record("accepted"); return }
        #expect(refusal.error.code == .lineTooLong)
    }

    @Test func listsLongerThanTheLimitAreRefused() {
        let many = (0...ServiceWire.maximumListCount).map { "\"P\($0)\"" }.joined(separator: ",")
        #expect(
            refusal(#"{"id":1,"op":"signIn","supportedAccountProviderIdentifiers":[\#(many)]}"#)?.error.code
                == .badRequest)
    }

    @Test func answerLines() {
        let expiry = Date(timeIntervalSince1970: 1_767_312_000)
        #expect(
            ServiceWire.line(answering: .number(1), with: .accessStatus(.granted))
                == #"{"v":1,"id":1,"ok":true,"accessStatus":"granted"}"#)
        #expect(
            ServiceWire.line(
                answering: .string("x"),
                with: .metadata(provider: "AppleBoarded", expiresAt: expiry, samlResponse: "PHM+"))
                == #"{"v":1,"id":"x","ok":true,"accountProviderIdentifier":"AppleBoarded","#
                + #""authenticationExpirationDate":1767312000000,"samlResponse":"PHM+"}"#
        )
        #expect(
            ServiceWire.line(answering: .number(2), with: .metadata(provider: nil, expiresAt: nil, samlResponse: nil))
                == #"{"v":1,"id":2,"ok":true,"accountProviderIdentifier":null}"#)
        #expect(
            ServiceWire.line(answering: .number(3), with: .failure(ServiceError(.accessNotGranted, "No.")))
                == #"{"v":1,"id":3,"ok":false,"error":{"code":"accessNotGranted","message":"No."}}"#)
        #expect(
            ServiceWire.line(answering: nil, with: .failure(ServiceError(.badRequest, "x"))).hasPrefix(
                #"{"v":1,"id":null,"ok":false"#))
        let code = SignInCode(
            code: "BCDF-GHJK", url: "http://h/tv-provider", completeURL: "http://h/tv-provider?code=BCDFGHJK",
            expiresAt: expiry)
        #expect(
            ServiceWire.line(
                answering: .number(4), with: .failure(ServiceError(.userCancelled, "Later.", signIn: code)))
                == #"{"v":1,"id":4,"ok":false,"error":{"code":"userCancelled","message":"Later.","#
                + #""signIn":{"code":"BCDF-GHJK","url":"http://h/tv-provider","#
                + #""completeUrl":"http://h/tv-provider?code=BCDFGHJK","expiresAt":1767312000000}}}"#)
        #expect(
            ServiceWire.line(answering: .number(5), with: .hello).contains(
                #""protocol":1,"operations":["hello","accessStatus","#))
    }

    @Test func eventLines() {
        let expiry = Date(timeIntervalSince1970: 1_767_312_000)
        #expect(ServiceWire.line(for: .signedOut) == #"{"v":1,"event":"signedOut"}"#)
        #expect(
            ServiceWire.line(
                for: .signedIn(provider: "AppleBoarded", providerName: "Apple Boarded TV", expiresAt: expiry))
                == #"{"v":1,"event":"signedIn","provider":"AppleBoarded","providerName":"Apple Boarded "#
                + #"TV","expiresAt":1767312000000}"#
        )
        #expect(
            ServiceWire.line(for: .signInEnded(reason: "cancelled"))
                == #"{"v":1,"event":"signInEnded","reason":"cancelled"}"#)
        #expect(
            ServiceWire.line(for: .permissionChanged(Self.news, .denied))
                == #"{"v":1,"event":"permissionChanged","app":{"requestor":"REF30","name":"News"},"#
                + #""accessStatus":"denied"}"#
        )
    }

    @Test func everyLineIsOneLine() {
        let hostile = ServiceError(.badRequest, "two\nlines\u{2028}and\rmore\u{0}")
        let line = ServiceWire.line(answering: .string("a\nb"), with: .failure(hostile))
        #expect(!line.contains("\n") && !line.contains("\r") && !line.contains("\u{2028}"))
        #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil)
    }
}
