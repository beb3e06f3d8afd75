import Foundation
import Testing

@testable import AccessEnabler

/// The default `X-Device-Info` describes the Linux machine it runs on, read from a file
/// system laid out like the real one; `AP-Device-Identifier` for an identifier the
/// application supplies; header values encoded once per value.
@Suite("REST device information")
struct RESTDeviceInfoTests {
    /// A scratch root with the files the SDK reads, removed by ``remove()``.
    private struct FakeRoot {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "device-root-\(UUID().uuidString)", isDirectory: true)

        func write(_ path: String, _ text: String) throws {
            let file = url.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }

        func directory(_ path: String) throws {
            try FileManager.default.createDirectory(
                at: url.appendingPathComponent(path), withIntermediateDirectories: true)
        }

        func facts() -> LinuxMachineFacts {
            LinuxMachineFacts.read(root: url, uname: (release: "6.8.0-45-generic", machine: "x86_64"))
        }

        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    private static let routeHeader =
        "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"

    @Test func aDesktopOnWiFiIsDescribedAsItIs() throws {
        let root = FakeRoot()
        defer { root.remove() }
        try root.write("sys/class/dmi/id/product_name", "ThinkCentre M70q\n")
        try root.write("sys/class/dmi/id/product_version", "ThinkCentre M70q Gen 2\n")
        try root.write("sys/class/dmi/id/sys_vendor", "LENOVO\n")
        try root.write("sys/class/dmi/id/board_vendor", "LENOVO\n")
        try root.write("sys/class/dmi/id/chassis_type", "35\n")
        try root.write(
            "etc/os-release", "PRETTY_NAME=\"Ubuntu 24.04.1 LTS\"\nNAME=\"Ubuntu\"\nVERSION_ID=\"24.04\"\nID=ubuntu\n")
        try root.write(
            "proc/net/route",
            Self.routeHeader
                + "wlp2s0\t0001A8C0\t00000000\t0001\t0\t0\t600\t00FFFFFF\t0\t0\t0\n"
                + "wlp2s0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0\n")
        try root.directory("sys/class/net/wlp2s0/wireless")

        let info = DeviceInfo(machine: root.facts())
        #expect(info.model == "ThinkCentre M70q")
        #expect(info.version == "ThinkCentre M70q Gen 2")
        #expect(info.manufacturer == "LENOVO")
        #expect(info.vendor == "LENOVO")
        #expect(info.osName == "Linux")
        #expect(info.osFamily == "Linux")
        #expect(info.osVendor == nil, "no documented osVendor fits Ubuntu")
        #expect(info.osVersion == "24.04")
        #expect(info.primaryHardwareType == "SetTopBox", "a mini PC is not a desktop or laptop chassis")
        #expect(info.connectionType == "WiFi")
        #expect(info.validationProblem == nil)
        let sent = try #require(RESTFixtures.base64JSON(info.headerValue))
        #expect(sent["osName"] as? String == "Linux")
        #expect(sent["osVendor"] == nil)
    }

    @Test func aBoardWithoutFirmwareTablesUsesTheDeviceTreeAndTheKernel() throws {
        let root = FakeRoot()
        defer { root.remove() }
        try root.write("sys/firmware/devicetree/base/model", "Raspberry Pi 4 Model B Rev 1.4\0")
        try root.write("usr/lib/os-release", "ID=debian\n")
        try root.write(
            "proc/net/route", Self.routeHeader + "eth0\t00000000\t0101A8C0\t0003\t0\t0\t0\t00000000\t0\t0\t0\n")
        try root.directory("sys/class/net/eth0")

        let info = DeviceInfo(machine: root.facts())
        #expect(info.model == "Raspberry Pi 4 Model B Rev 1.4")
        #expect(info.version == "x86_64")
        #expect(info.manufacturer == nil && info.vendor == nil)
        #expect(info.osVersion == "6.8.0-45-generic", "no VERSION_ID: the kernel release")
        #expect(info.primaryHardwareType == "SetTopBox")
        #expect(info.connectionType == "LAN")
        #expect(info.validationProblem == nil)
    }

    @Test func firmwarePlaceholdersAreIgnored() throws {
        let root = FakeRoot()
        defer { root.remove() }
        try root.write("sys/class/dmi/id/product_name", "To Be Filled By O.E.M.\n")
        try root.write("sys/class/dmi/id/product_version", "Default string\n")
        try root.write("sys/class/dmi/id/sys_vendor", "System manufacturer\n")
        try root.write("sys/class/dmi/id/board_vendor", "ASRock\n")
        try root.write("sys/class/dmi/id/chassis_type", "3\n")

        let info = DeviceInfo(machine: root.facts())
        #expect(info.model == "Linux x86_64")
        #expect(info.version == "x86_64")
        #expect(info.manufacturer == "ASRock", "the board vendor when the system vendor is a placeholder")
        #expect(info.primaryHardwareType == "Desktop")
        #expect(info.connectionType == "LAN", "no route table: LAN")
        #expect(info.validationProblem == nil)
    }

    @Test func chromeOSAndWebOSUseTheirDocumentedNames() throws {
        let root = FakeRoot()
        defer { root.remove() }
        try root.write("etc/os-release", "ID=chromeos\nVERSION_ID=118\n")
        let chrome = DeviceInfo(machine: root.facts())
        #expect(chrome.osName == "Chrome OS" && chrome.osFamily == "Linux" && chrome.osVendor == "Google")
        try root.write("etc/os-release", "ID='webos'\n")
        let web = DeviceInfo(machine: root.facts())
        #expect(web.osName == "webOS" && web.osFamily == "webOS" && web.osVendor == "LG")
        #expect(chrome.validationProblem == nil && web.validationProblem == nil)
    }

    @Test func hardwareTypeFollowsTheChassis() {
        #expect(DeviceInfo.hardwareType(chassis: 3) == "Desktop")
        #expect(DeviceInfo.hardwareType(chassis: 10) == "Desktop")
        #expect(DeviceInfo.hardwareType(chassis: 30) == "Tablet")
        #expect(DeviceInfo.hardwareType(chassis: 1) == "SetTopBox")
        #expect(DeviceInfo.hardwareType(chassis: nil) == "SetTopBox")
        for chassis in 0...40 {
            #expect(DeviceInfo.allowedPrimaryHardwareTypes.contains(DeviceInfo.hardwareType(chassis: chassis)))
        }
    }

    @Test func theIPv6DefaultRouteIsUsedWhenThereIsNoIPv4One() {
        let routes = """
            00000000000000000000000000000000 00 00000000000000000000000000000000 00 00000000000000000000000000000000 ffffffff 00000001 00000000 00200200       lo
            00000000000000000000000000000000 00 00000000000000000000000000000000 00 fe800000000000000000000000000001 00000400 00000001 00000000 00000003   wlan0
            """
        #expect(LinuxMachineFacts.defaultRouteInterface(ipv6Routes: routes) == "wlan0")
        #expect(LinuxMachineFacts.defaultRouteInterface(ipv4Routes: Self.routeHeader) == nil)
    }

    @Test func thisMachineIsDescribedWithinTheDocumentedValues() {
        let info = DeviceInfo.linuxMachine
        #expect(info.validationProblem == nil)
        #expect(["Linux", "Chrome OS", "webOS"].contains(info.osName))
        #expect(info.osVendor != "Apple")
        #expect(DeviceInfo.linuxDefault(platform: .tvOS) == info)
    }

    @Test func presentingAsAnApplePlatformKeepsTheHardware() {
        let machine = DeviceInfo.linuxMachine
        let tv = machine.presenting(as: .tvOS)
        #expect(tv.osName == "tvOS" && tv.osFamily == "tvOS" && tv.osVendor == "Apple" && tv.osVersion == "17.0")
        #expect(tv.model == machine.model && tv.version == machine.version && tv.manufacturer == machine.manufacturer)
        #expect(tv.primaryHardwareType == machine.primaryHardwareType && tv.connectionType == machine.connectionType)
        #expect(DeviceInfo.linuxDefault(platform: .iOS, partnerSingleSignOn: true) == machine.presenting(as: .iOS))
    }

    // MARK: Header values

    @Test func headerValuesAreCachedPerValueNeverStale() throws {
        var info = RESTFixtures.deviceInfo
        let first = try info.validatedHeaderValue()
        #expect(try info.validatedHeaderValue() == first)
        info.model = "Other Box"
        let second = try info.validatedHeaderValue()
        #expect(second != first)
        #expect(RESTFixtures.base64JSON(second)?["model"] as? String == "Other Box")
        info.osName = "Plan 9"
        #expect(throws: RESTClientError.self) { try info.validatedHeaderValue() }

        var status = PartnerFrameworkStatus(accessStatus: "granted", providerID: "MVPD1")
        #expect(status.cachedHeaderValue == status.headerValue)
        status.providerID = "MVPD2"
        #expect(status.cachedHeaderValue == status.headerValue)
    }

    // MARK: AP-Device-Identifier

    @Test func theHeaderPageExampleIsReproduced() {
        // The AP-Device-Identifier page: identifier ba23d141-… is sent Base64-encoded.
        #expect(
            DeviceIdentifier.headerValue("ba23d141-d715-561c-94f4-e9e4c966b1eb")
                == "fingerprint YmEyM2QxNDEtZDcxNS01NjFjLTk0ZjQtZTllNGM5NjZiMWVi")
        let context = RequestContext(
            deviceIdentifier: "ba23d141-d715-561c-94f4-e9e4c966b1eb", deviceInfo: RESTFixtures.deviceInfo)
        #expect(context.deviceIdentifierHeaderValue == "fingerprint YmEyM2QxNDEtZDcxNS01NjFjLTk0ZjQtZTllNGM5NjZiMWVi")
    }

    @Test func aConfiguredIdentifierIsSentAsItsSHA256() {
        // SHA-256 test vector (FIPS 180-2): "abc".
        #expect(DeviceIdentifier.hashed("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let hashed = DeviceIdentifier.hashed("ba23d141-d715-561c-94f4-e9e4c966b1eb")
        #expect(
            hashed.count == 64
                && Hex.decode(hashed) == SHA256.digest(Array("ba23d141-d715-561c-94f4-e9e4c966b1eb".utf8)))
        #expect(DeviceIdentifier.headerValue(hashed) == "fingerprint " + Data(hashed.utf8).base64EncodedString())
    }
}
