import Foundation
import Testing

@testable import AccessEnabler

/// The pure readings of what legacy apps hand the SDK: service-provider URLs as the legacy
/// SDK's constants and documentation wrote them, `device_info` as Adobe's Android demo sends
/// it, and the once-per-process lines that say what could not be used.
@Suite struct DecisionLegacyInputsTests {
    /// Collects printed lines.
    final class Printed: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var all: [String] { lock.withLock { lines } }
    }

    @Test(arguments: [
        ("https://sp.auth.adobe.com", "https://sp.auth.adobe.com"),
        ("https://sp.auth.adobe.com/", "https://sp.auth.adobe.com"),
        ("http://sp.auth.adobe.com/", "https://sp.auth.adobe.com"),
        ("sp.auth-staging.adobe.com", "https://sp.auth-staging.adobe.com"),
        (" HTTPS://SP-PREQUAL.AUTH.ADOBE.COM ", "https://sp-prequal.auth.adobe.com"),
        ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("http://proxy.example:8080/pass/", "http://proxy.example:8080/pass"),
        ("localhost:9", "https://localhost:9"),
    ])
    func aServiceProviderIsReadAsLegacyAppsWroteIt(written: String, read: String) {
        #expect(ServiceProviderAddress.url(written)?.absoluteString == read)
    }

    @Test(arguments: ["", "   ", "ftp://sp.example", "https://", "://nohost"])
    func whatNamesNoHTTPServiceProviderIsNothing(written: String) {
        #expect(ServiceProviderAddress.url(written) == nil)
    }

    static let fallback = DeviceInfo(model: "Box", version: "1", osName: "Linux", osVersion: "6", connectionType: "LAN")

    @Test func aDeviceInfoIsReadPlainPercentEncodedWithLineBreaksOrURLSafe() throws {
        let json = #"{"model":"Phone ~ ?>>","osName":"Android","manufacturer":"Example Ltd"}"#
        let plain = Data(json.utf8).base64EncodedString()
        #expect(plain.contains("+") || plain.contains("/"), "the sample exercises + or /: \(plain)")
        let wrapped = Data(json.utf8).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
        let forms = [
            plain,
            plain.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!,
            wrapped.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!,
            plain.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: ""),
        ]
        for form in forms {
            let info = try DeviceInfoOption.read(form, over: Self.fallback).get()
            #expect(info.model == "Phone ~ ?>>", "\(form)")
            #expect(info.osName == "Android")
            #expect(info.manufacturer == "Example Ltd")
            #expect(info.version == "1" && info.connectionType == "LAN", "the defaults fill what the option leaves out")
        }
    }

    @Test func aDeviceInfoThatCannotBeReadSaysWhy() {
        #expect(DeviceInfoOption.problem("%%% not base64 %%%")?.reason.contains("not Base64") == true)
        #expect(
            DeviceInfoOption.problem(Data("[1,2]".utf8).base64EncodedString())?.reason.contains("JSON object") == true)
        #expect(
            DeviceInfoOption.problem(Data(#"{"model":7}"#.utf8).base64EncodedString())?.reason.contains("model") == true
        )
        #expect(DeviceInfoOption.problem("") == nil, "an empty option gives nothing to read")
    }

    @Test func anUnreadableDeviceInfoIsPrintedOncePerProcessAndReportedEveryTime() {
        let printed = Printed()
        let reported = Printed()
        var configuration = AccessEnablerConfiguration()
        configuration.diagnostics = { diagnostic in
            if case .unusedOption(let key, _) = diagnostic { reported.append(key) }
        }
        let ledger = OncePerProcess()
        let advice = SetupAdvice(configuration: configuration, print: printed.append, ledger: ledger)
        advice.optionsGiven(["device_info": "%%%"])
        advice.optionsGiven(["device_info": "%%%"])
        advice.optionsGiven(["device_info": 42])
        #expect(reported.all == ["device_info", "device_info", "device_info"])
        #expect(printed.all.count == 1)
        #expect(
            printed.all.first?.hasPrefix("AccessEnabler: setOptions was given a device_info the SDK cannot read")
                == true)
        // A second AccessEnabler of the same process prints nothing more.
        SetupAdvice(configuration: configuration, print: printed.append, ledger: ledger).optionsGiven([
            "device_info": "%%%"
        ])
        #expect(printed.all.count == 1)
    }

    @Test func aMissingDelegateIsPrintedOncePerCallAndPerProcess() {
        let printed = Printed()
        let ledger = MissingDelegateDiagnostics(print: printed.append)
        let first = ledger.report(call: "setRequestor(_:)", answer: "setRequestorComplete", missing: .delegate)
        ledger.report(call: "setRequestor(_:)", answer: "setRequestorComplete", missing: .delegate)
        ledger.report(call: "getAuthentication()", answer: "setAuthenticationStatus", missing: .delegate)
        ledger.report(
            call: "getAuthentication()", answer: "setAuthenticationStatus", missing: .statusDelegate,
            delegateType: "App.Player")
        #expect(printed.all.count == 3)
        #expect(printed.all.first == first)
        #expect(first.hasPrefix("AccessEnabler: setRequestor(_:) was called while AccessEnabler.delegate is nil"))
        #expect(ledger.printCount(call: "setRequestor(_:)", missing: .delegate) == 1)
        #expect(printed.all.last?.contains("App.Player adopts EntitlementStatus") == true)
    }
}
