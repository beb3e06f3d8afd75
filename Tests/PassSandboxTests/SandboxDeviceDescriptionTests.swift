import Foundation
import Testing

@testable import PassSandbox

/// What REST API V2 tells about the streaming device, over real HTTP: the structured
/// `device` of the session information page and the configuration's `device` and `time`.
@Suite("Wire conformance: the device in sessions and configuration")
struct SandboxDeviceDescriptionTests {
    /// Every key the X-Device-Info page lists, with values of the types a device sends.
    static var fullDeviceInfo: [String: Any] {
        [
            "primaryHardwareType": "TV", "model": "Bravia XR", "version": "2.0.1", "manufacturer": "Sony",
            "vendor": "Sony Retail",
            "osName": "Android", "osFamily": "Android", "osVendor": "Google", "osVersion": "12.1.3-beta",
            "browserName": "Chrome", "browserVendor": "Google", "browserVersion": "60.0.3112",
            "userAgent": "Mozilla/5.0 (Linux; Android 12)",
            "displayWidth": 1920, "displayHeight": "1080", "displayPpi": 96, "diagonalScreenSize": "55",
            "connectionIp": "10.0.0.5", "connectionPort": "53124", "connectionType": "WiFi", "connectionSecure": "true",
            "applicationId": "REF30",
        ]
    }

    @Test func sessionInformationDescribesTheDeviceThatOpenedTheSession() async throws {
        let wire = try await WireExchange()
        defer { wire.shutdown() }
        let code = try await wire.openSession(deviceInfo: try encodedDeviceInfo(Self.fullDeviceInfo))
        let response = try await wire.send(
            "GET", "/api/v2/REF30/sessions/\(code)", headers: [("Authorization", "Bearer \(wire.bearer)")])
        #expect(response.status == 200)
        let device = try WireExchange.object(response).object("device")
        #expect(device.string("type") == "TV")
        #expect(device.string("model") == "Bravia XR")
        #expect(device.object("version") as NSDictionary == ["major": 2, "minor": 0, "patch": 1, "profile": ""])
        #expect(
            device.object("hardware") as NSDictionary == [
                "name": "Bravia XR", "vendor": "Sony Retail", "manufacturer": "Sony",
                "version": ["major": 2, "minor": 0, "patch": 1, "profile": ""],
            ])
        #expect(
            device.object("operatingSystem") as NSDictionary == [
                "name": "Android", "family": "Android", "vendor": "Google",
                "version": ["major": 12, "minor": 1, "patch": 3, "profile": "beta"],
            ])
        #expect(
            device.object("browser") as NSDictionary == [
                "name": "Chrome", "vendor": "Google",
                "version": ["major": 60, "minor": 0, "patch": 3112, "profile": ""],
                "userAgent": "Mozilla/5.0 (Linux; Android 12)", "originalUserAgent": "Mozilla/5.0 (Linux; Android 12)",
            ])
        #expect(
            device.object("display") as NSDictionary == [
                "width": 1920, "height": 1080, "ppi": 96, "name": NSNull(), "vendor": NSNull(), "version": NSNull(),
                "diagonalSize": "55",
            ])
        #expect(device.string("applicationId") == "REF30")
        #expect(
            device.object("connection") as NSDictionary == [
                "ipAddress": "10.0.0.5", "port": "53124", "secure": true, "type": "WiFi",
            ])
        // The X-Device-Info echo is gone: no flat keys of the header are left at the top.
        #expect(device["osName"] == nil && device["primaryHardwareType"] == nil)
    }

    @Test func whatTheHeaderDoesNotSayIsNullOrZero() async throws {
        let wire = try await WireExchange()
        defer { wire.shutdown() }
        let minimal: [String: Any] = [
            "model": "Box", "version": "x86_64", "osName": "Linux", "osVersion": "6", "connectionType": "LAN",
        ]
        let code = try await wire.openSession(deviceInfo: try encodedDeviceInfo(minimal))
        let device = try WireExchange.object(
            try await wire.send(
                "GET", "/api/v2/sessions/REF30/\(code)", headers: [("Authorization", "Bearer \(wire.bearer)")])
        ).object("device")
        #expect(device.string("type") == "Unknown")
        #expect(device.object("version") as NSDictionary == ["major": 0, "minor": 0, "patch": 0, "profile": "x86_64"])
        #expect(
            device.object("operatingSystem") as NSDictionary == [
                "name": "Linux", "family": NSNull(), "vendor": NSNull(),
                "version": ["major": 6, "minor": 0, "patch": 0, "profile": ""],
            ])
        #expect(device.object("browser")["userAgent"] is NSNull)
        #expect(
            device.object("display") as NSDictionary == [
                "width": 0, "height": 0, "ppi": 0, "name": NSNull(), "vendor": NSNull(), "version": NSNull(),
                "diagonalSize": NSNull(),
            ])
        #expect(device["applicationId"] is NSNull)
        #expect(
            device.object("connection") as NSDictionary == [
                "ipAddress": NSNull(), "port": NSNull(), "secure": false, "type": "LAN",
            ])
    }

    @Test(
        arguments: [
            ("17.0", 17, 0, 0, ""), ("2.0.1", 2, 0, 1, ""), ("6.1.0-13-amd64", 6, 1, 0, "13-amd64"),
            ("1.2.3.4", 1, 2, 3, "4"),
            ("10.", 10, 0, 0, ""), ("", 0, 0, 0, ""), ("aarch64", 0, 0, 0, "aarch64"),
            ("99999999999.1", 0, 0, 0, "99999999999.1"),
        ] as [(String, Int, Int, Int, String)])
    func versionsSplitIntoTheirParts(text: String, major: Int, minor: Int, patch: Int, profile: String) throws {
        let version = try #require(
            try JSONSerialization.jsonObject(with: Data(SandboxDeviceDescription.version(text).bytes)) as? NSDictionary)
        #expect(version == ["major": major, "minor": minor, "patch": patch, "profile": profile], "\(text)")
    }

    @Test func configurationCarriesTheDeviceTypeAndTheServerTime() async throws {
        let wire = try await WireExchange()
        defer { wire.shutdown() }
        wire.sandbox.clock.advance(by: 12.345)
        let withInfo = try await wire.send("GET", "/api/v2/REF30/configuration", headers: wire.deviceHeaders())
        #expect(withInfo.status == 200)
        let configuration = try WireExchange.object(withInfo)
        #expect(configuration.string("device") == "SetTopBox")
        #expect(configuration.int("time") == wire.sandbox.clock.now.epochMilliseconds)
        #expect(configuration.object("requestor").string("id") == "REF30")
        #expect((configuration.object("requestor")["mvpds"] as? [Any])?.isEmpty == false)

        // The requestor part is cached per world; the device and time are not.
        let tv = try encodedDeviceInfo([
            "primaryHardwareType": "TV", "model": "M", "version": "1", "osName": "Linux", "osVersion": "6",
            "connectionType": "LAN",
        ])
        let other = try WireExchange.object(
            try await wire.send("GET", "/api/v2/REF30/configuration", headers: wire.deviceHeaders(deviceInfo: tv)))
        #expect(other.string("device") == "TV")
        let anonymous = try WireExchange.object(
            try await wire.send(
                "GET", "/api/v2/REF30/configuration", headers: [("Authorization", "Bearer \(wire.bearer)")]))
        #expect(anonymous.string("device") == "unknown", "no X-Device-Info: the sample's \"unknown\"")
        #expect(anonymous.object("requestor") as NSDictionary == configuration.object("requestor") as NSDictionary)
    }
}
