import Foundation
import Testing

@testable import AccessEnabler

/// `AP-TempPass-Identity`: Base64 of the identity's JSON, sent only where REST API V2
/// accepts it (decisions and the profile of one MVPD).
@Suite struct RESTTempPassIdentityTests {
    @Test func theValueIsTheBase64OfSortedJSON() throws {
        let value = try #require(TempPassIdentity.headerValue(["email": "example@domain.com", "id": "42"]))
        #expect(
            String(decoding: try #require(Data(base64Encoded: value)), as: UTF8.self)
                == #"{"email":"example@domain.com","id":"42"}"#)
        #expect(TempPassIdentity.headerValue([:]) == nil)
    }

    @Test func onlyDecisionsAndTheMVPDProfileCarryIt() throws {
        var context = RequestContext(deviceIdentifier: "d", deviceInfo: .linuxDefault(platform: .tvOS))
        context.tempPassIdentity = "eyJ9"
        for operation in RESTOperation.allCases {
            let headers = try RESTHeaders.build(
                operation: operation, accessToken: "t", body: .none, context: context, userAgent: "UA")
            let carries = headers.contains { $0.name == "AP-TempPass-Identity" && $0.value == "eyJ9" }
            #expect(carries == [.authorize, .preauthorize, .profileForMVPD].contains(operation), "\(operation)")
        }
    }
}
