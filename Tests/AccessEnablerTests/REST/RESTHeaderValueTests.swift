import Foundation
import Testing

@testable import AccessEnabler

/// Header values built from typed values: X-Device-Info, AP-Device-Identifier,
/// AP-Partner-Framework-Status; form encoding; enhanced error decoding shapes.
@Suite("REST V2 header values")
struct RESTHeaderValueTests {
    @Test func deviceIdentifierHeaderIsFingerprintOfBase64() {
        let context = RequestContext(deviceIdentifier: "device-42", deviceInfo: RESTFixtures.deviceInfo)
        #expect(context.deviceIdentifierHeaderValue == "fingerprint ZGV2aWNlLTQy")
    }

    @Test func deviceInfoHeaderIsBase64JSONOfThePresentKeys() throws {
        let info = DeviceInfo(
            model: "Linux x86_64", version: "6.8", osName: "iOS", osVersion: "17.0", connectionType: "WiFi",
            primaryHardwareType: "MobilePhone", displayWidth: 1920, connectionSecure: true, applicationId: "SPX")
        let object = try #require(RESTFixtures.base64JSON(info.headerValue))
        #expect(object["model"] as? String == "Linux x86_64")
        #expect(object["version"] as? String == "6.8")
        #expect(object["osName"] as? String == "iOS")
        #expect(object["osVersion"] as? String == "17.0")
        #expect(object["connectionType"] as? String == "WiFi")
        #expect(object["primaryHardwareType"] as? String == "MobilePhone")
        #expect(object["displayWidth"] as? Int == 1920)
        #expect(object["connectionSecure"] as? Bool == true)
        #expect(object["applicationId"] as? String == "SPX")
        #expect(object["browserName"] == nil)
        #expect(DeviceInfo(headerValue: info.headerValue) == info)
    }

    @Test(arguments: [DeviceInfo.Platform.iOS, .tvOS])
    func linuxDefaultIsValid(platform: DeviceInfo.Platform) {
        let info = DeviceInfo.linuxDefault(platform: platform)
        #expect(info.validationProblem == nil)
        #expect(info == DeviceInfo.linuxMachine, "without partner single sign-on the machine is described as it is")
        let partner = DeviceInfo.linuxDefault(platform: platform, partnerSingleSignOn: true)
        #expect(partner.validationProblem == nil)
        #expect(partner.osName == platform.rawValue)
        #expect(partner.osVendor == "Apple")
        #expect(!partner.model.isEmpty && !partner.version.isEmpty)
    }

    @Test func deviceInfoValidationNamesTheKey() {
        var info = RESTFixtures.deviceInfo
        info.primaryHardwareType = "Toaster"
        #expect(info.validationProblem?.contains("primaryHardwareType") == true)
        info = RESTFixtures.deviceInfo
        info.connectionType = " "
        #expect(info.validationProblem == "the required key connectionType is empty")
        info = RESTFixtures.deviceInfo
        info.browserVendor = "Acme"
        #expect(throws: RESTClientError.self) { try info.validate() }
        info = RESTFixtures.deviceInfo
        info.osFamily = "Linux"
        info.browserName = "Firefox"
        #expect(info.validationProblem == nil)
    }

    @Test func deviceInfoFromLegacyOption() {
        let json = #"{"model":"Box","version":"1","osName":"Linux","osVersion":"6","connectionType":"LAN"}"#
        let info = DeviceInfo(headerValue: Data(json.utf8).base64EncodedString())
        #expect(info?.model == "Box")
        #expect(info?.validationProblem == nil)
        #expect(DeviceInfo(headerValue: "not base64 at all!") == nil)
        let missingRequired = Data(#"{"model":"Box"}"#.utf8).base64EncodedString()
        #expect(DeviceInfo(headerValue: missingRequired) == nil)
    }

    @Test func partnerStatusHeaderHasTheDocumentedShape() throws {
        let status = PartnerFrameworkStatus(
            access: .error(code: "7", message: "Service unavailable"),
            metadata: PartnerAccountMetadata(
                accountProviderIdentifier: "cable-co",
                authenticationExpirationDate: Date(timeIntervalSince1970: 1_735_689_600)))
        let object = try #require(RESTFixtures.base64JSON(status.headerValue))
        let permission = try #require(object["frameworkPermissionInfo"] as? [String: Any])
        let provider = try #require(object["frameworkProviderInfo"] as? [String: Any])
        #expect(permission["accessStatus"] as? String == "notDetermined")
        let error = try #require(permission["error"] as? [String: Any])
        #expect(error["code"] as? String == "7")
        #expect(error["message"] as? String == "Service unavailable")
        #expect(provider["id"] as? String == "cable-co")
        #expect(provider["expirationDate"] as? String == "1735689600000")
        #expect(status.validationProblem == nil)
    }

    @Test func partnerStatusWithoutProviderSendsEmptyProviderInfo() throws {
        let status = PartnerFrameworkStatus(access: .denied, metadata: nil)
        let object = try #require(RESTFixtures.base64JSON(status.headerValue))
        #expect((object["frameworkPermissionInfo"] as? [String: Any])?["accessStatus"] as? String == "denied")
        #expect((object["frameworkPermissionInfo"] as? [String: Any])?["error"] == nil)
        #expect((object["frameworkProviderInfo"] as? [String: Any])?.isEmpty == true)
        #expect(PartnerFrameworkStatus(accessStatus: "yes").validationProblem != nil)
    }

    @Test func formEncodingEscapesReservedCharacters() {
        let encoded = FormEncoding.encode([
            ("redirectUrl", "https://a.example/p?q=1&r=2#f"), ("SAMLResponse", "ab+/=="), ("sp ace", "é"),
        ])
        #expect(
            encoded
                == "redirectUrl=https%3A%2F%2Fa.example%2Fp%3Fq%3D1%26r%3D2%23f&SAMLResponse=ab%2B%2F%3D%3D&sp%20ace=%C3%A9"
        )
        let decoded = FormEncoding.decode(encoded + "&plus=a+b")
        #expect(decoded.map(\.value) == ["https://a.example/p?q=1&r=2#f", "ab+/==", "é", "a b"])
    }

    @Test func enhancedErrorDecodingIsLenient() throws {
        let stringStatus = try JSONDecoder().decode(
            EnhancedError.self, from: Data(#"{"status":"403","code":"c","message":{"text":"m"}}"#.utf8))
        #expect(stringStatus.status == 403)
        #expect(stringStatus.message == #"{"text":"m"}"#)
        let oauth = try JSONDecoder().decode(
            EnhancedError.self, from: Data(#"{"error":"invalid_client","error_description":"unknown client"}"#.utf8))
        #expect(oauth == EnhancedError(code: "invalid_client", message: "unknown client"))
        #expect(RESTResponseClassifier.enhancedError(in: Data("<html/>".utf8)) == nil)
        #expect(RESTResponseClassifier.enhancedError(in: Data(#"{"unrelated":true}"#.utf8)) == nil)
    }

    @Test func relativeURLsResolveAgainstTheBase() {
        let builder = RESTURLBuilder(baseURL: URL(string: "http://127.0.0.1:8080/")!)
        #expect(
            builder.resolve("/api/v2/authenticate/SPX/C1")?.absoluteString
                == "http://127.0.0.1:8080/api/v2/authenticate/SPX/C1")
        #expect(builder.resolve("https://mvpd.example/login")?.absoluteString == "https://mvpd.example/login")
        let prefixed = RESTURLBuilder(baseURL: URL(string: "https://host.example/pass")!)
        #expect(
            prefixed.url(["api", "v2", "SPX", "profiles"])?.absoluteString
                == "https://host.example/pass/api/v2/SPX/profiles")
        #expect(prefixed.resolve("/api/v2/x")?.absoluteString == "https://host.example/pass/api/v2/x")
    }
}
