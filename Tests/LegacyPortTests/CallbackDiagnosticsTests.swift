import Foundation
import PassSandbox
import Testing

@testable import AccessEnabler

/// A terminal callback that reaches neither spelling is reported: once per callback name
/// per process on standard error, and to every observer each time.
@Suite struct CallbackDiagnosticsTests {
    /// Collects what a ledger prints.
    private final class Printed: @unchecked Sendable {
        private let lock = NSLock()
        private var messages: [String] = []
        func append(_ message: String) { lock.withLock { messages.append(message) } }
        var all: [String] { lock.withLock { messages } }
    }

    /// Collects the reports the process-wide ledger hands its observers.
    private final class Reports: @unchecked Sendable {
        private let lock = NSLock()
        private var reports: [CallbackDiagnostics.Report] = []
        func append(_ report: CallbackDiagnostics.Report) { lock.withLock { reports.append(report) } }
        func about(_ delegateType: String) -> [CallbackDiagnostics.Report] {
            lock.withLock { reports.filter { $0.delegateType == delegateType } }
        }
    }

    @Test func eachCallbackIsPrintedOnceHoweverOftenItIsReported() {
        let printed = Printed()
        let ledger = CallbackDiagnostics(print: printed.append)
        let first = ledger.report(.setToken, delegateType: "App.Player")
        let second = ledger.report(.setToken, delegateType: "App.Other")
        let other = ledger.report(.setRequestorComplete, delegateType: "App.Player")
        #expect(first.printed && !second.printed && other.printed)
        #expect(printed.all == [first.message, other.message])
        #expect(ledger.printCount(for: .setToken) == 1)
        #expect(ledger.printCount(for: .setRequestorComplete) == 1)
        #expect(ledger.printCount(for: .selectedProvider) == 0)
    }

    @Test(arguments: TerminalCallback.allCases)
    func theMessageNamesTheCallbackBothSpellingsAndTheRemedy(callback: TerminalCallback) {
        let message = CallbackDiagnostics.message(for: callback, delegateType: "MyApp.EntitlementController")
        #expect(message.contains("MyApp.EntitlementController"))
        #expect(message.contains("callback \(callback.name),"))
        for spelling in callback.acceptedSpellings {
            #expect(message.contains("    \(spelling)\n"), "\(spelling)")
        }
        #expect(message.contains("implement it with an empty body"))
        #expect(message.hasSuffix("\n"))
    }

    @Test func everyTerminalCallbackButSetRequestorCompleteHasALegacySpelling() {
        #expect(TerminalCallback.allCases.filter { $0.legacySpelling == nil } == [.setRequestorComplete])
        #expect(TerminalCallback.navigateToUrl.legacySpelling == "func navigate(toUrl url: String!)")
    }

    @Test func observersSeeEveryReportUntilRemoved() {
        let printed = Printed()
        let ledger = CallbackDiagnostics(print: printed.append)
        let reports = Reports()
        let token = ledger.addObserver(reports.append)
        ledger.report(.preauthorizedResources, delegateType: "A")
        ledger.report(.preauthorizedResources, delegateType: "A")
        ledger.removeObserver(token)
        ledger.report(.preauthorizedResources, delegateType: "A")
        #expect(reports.about("A").map(\.printed) == [true, false])
        #expect(printed.all.count == 1)
    }

    @Test func aDelegateMatchingNeitherSpellingIsReportedForEveryTerminalCallback() async throws {
        let delegate = NeitherSpellingDelegate()
        let delegateType = String(reflecting: NeitherSpellingDelegate.self)
        let reports = Reports()
        let token = CallbackDiagnostics.shared.addObserver(reports.append)
        defer { CallbackDiagnostics.shared.removeObserver(token) }

        let rig = try LegacyPortRig(delegate: delegate, statusDelegate: nil)
        await rig.run { $0.setRequestor("REF30") }
        await rig.run { $0.setRequestor("REF30") }
        await rig.run { $0.checkAuthentication() }
        await rig.run { $0.checkAuthorization("news") }
        await rig.run { $0.checkPreauthorizedResources(["news"]) }
        await rig.run { $0.getMetadata([METADATA_OPCODE_KEY: METADATA_DEVICE_ID]) }
        await rig.run { $0.getSelectedProvider() }
        await rig.run { $0.getAuthentication() }
        await rig.run { $0.setSelectedProvider("NotBoarded") }
        await rig.run { $0.setSelectedProvider(nil) }
        // TempPass authenticates without a login page, so an authorization can succeed.
        await rig.run { $0.getAuthentication() }
        await rig.run { $0.setSelectedProvider("TempPass") }
        await rig.run { $0.checkAuthorization("news") }

        let reported = reports.about(delegateType).map(\.callback)
        #expect(reported.filter { $0 == .setRequestorComplete }.count == 2, "reported each time it is reached")
        #expect(
            Set(reported) == [
                .setRequestorComplete, .setAuthenticationStatus, .tokenRequestFailed, .preauthorizedResources,
                .setMetadataStatus, .selectedProvider, .displayProviderDialog, .navigateToUrl, .setToken,
            ])
        for callback in Set(reported) {
            #expect(CallbackDiagnostics.shared.printCount(for: callback) == 1, "printed once per process: \(callback)")
        }
        #expect(delegate.misspelledCalls == 0)
    }
}
