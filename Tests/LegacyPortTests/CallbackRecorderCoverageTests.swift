import AccessEnablerScenarios
import Foundation
import Testing

@testable import AccessEnabler

/// Every callback the SDK can deliver reaches the scenario transcript, and every terminal
/// callback is one of them. ``DelegateCall/Name`` is `CaseIterable` and the two tables below
/// switch over it with no `default`: a callback added to ``DelegateCall`` is a compiler
/// error here (and in `CallbackRecorder`) until it has a sample and a transcript name, and a
/// recorder that never receives it (a delegate method it does not implement) fails here.
@Suite struct CallbackRecorderCoverageTests {
    /// One call of the callback `name`, with arguments.
    static func sample(_ name: DelegateCall.Name) -> DelegateCall {
        let dialog = TVProviderDialog(providers: ["A", "B"], featured: ["A"])
        return switch name {
        case .setRequestorComplete: .setRequestorComplete(1)
        case .setAuthenticationStatus: .setAuthenticationStatus(0, errorCode: USER_NOT_AUTHENTICATED_ERROR)
        case .displayProviderDialog: .displayProviderDialog([MVPD(id: "A", displayName: "A")])
        case .navigateToUrl: .navigateToUrl("https://example.com/login")
        case .navigateToUrlUsingSVC: .navigateToUrlUsingSVC("https://example.com/login", useSVC: true)
        case .presentTVProviderDialog: .presentTVProviderDialog(dialog)
        case .dismissTVProviderDialog: .dismissTVProviderDialog(dialog)
        case .setToken: .setToken("token", resource: "news")
        case .tokenRequestFailed:
            .tokenRequestFailed("news", errorCode: USER_NOT_AUTHORIZED_ERROR, description: "denied")
        case .selectedProvider: .selectedProvider(nil)
        case .setMetadataStatus:
            .setMetadataStatus(
                .string("value"), encrypted: false, key: 1, arguments: MetadataArguments(dictionary: [:]))
        case .preauthorizedResources: .preauthorizedResources(["news"])
        case .sendTrackingData: .sendTrackingData(["data"], event: 0)
        case .status: .status(AdvancedStatus(errorId: .n000, level: .info, message: "m"))
        case .preauthorizeResult:
            .preauthorizeResult(.decisions([]), AccessEnablerCallback(onResponse: { _ in }, onFailure: { _ in }))
        }
    }

    /// The `callback` of the transcript line the callback `name` makes (its one spelling,
    /// ``DelegateCall/Name/callbackName``); `nil` for the one answered to the app's callback
    /// object rather than to a delegate.
    static func transcriptName(_ name: DelegateCall.Name) -> String? {
        name == .preauthorizeResult ? nil : name.callbackName
    }

    @Test(arguments: DelegateCall.Name.allCases)
    func everyCallbackReachesTheTranscript(name: DelegateCall.Name) {
        let call = Self.sample(name)
        #expect(call.name == name)
        let recorder = CallbackRecorder()
        call.deliver(to: recorder, statusDelegate: recorder)
        #expect(recorder.callbacks.map(\.callback) == (Self.transcriptName(name).map { [$0] } ?? []))
    }

    /// ``TerminalCallback`` is a list of its own (with its spellings); each of its cases is
    /// exactly one delegate callback's, and ``DelegateCall/Name/terminal`` decides for every
    /// callback whether it is terminal.
    @Test func everyTerminalCallbackIsExactlyOneDelegateCallback() {
        let terminal = DelegateCall.Name.allCases.compactMap(\.terminal)
        #expect(terminal.count == Set(terminal).count)
        #expect(Set(terminal) == Set(TerminalCallback.allCases))
        for name in DelegateCall.Name.allCases {
            guard let callback = name.terminal else { continue }
            #expect(Self.transcriptName(name) == callback.rawValue || callback == .navigateToUrlUsingSVC, "\(name)")
        }
    }

    /// A callback's one spelling is the name its delegate method has: the transcript, the
    /// async events and the test rigs all write what the documentation writes.
    @Test func everyCallbackNameIsItsDelegateMethodsName() {
        for name in DelegateCall.Name.allCases {
            guard let callback = name.terminal else { continue }
            #expect(callback.currentSpelling.hasPrefix("func \(name.callbackName)("), "\(name): \(name.callbackName)")
        }
        #expect(AccessEnablerEvent.Kind.status.description == "status")
        #expect(AccessEnablerEvent.Kind.navigate.description == "navigateToUrl")
    }

    /// The callbacks that end a call are the terminal delegate callbacks and the Preauthorize
    /// API's answer; the test rigs that look for the end of a call read this one definition.
    @Test func theCallbacksThatEndACallAreTheTerminalOnesAndThePreauthorizeAnswer() {
        let ending = Set(DelegateCall.Name.allCases.filter(\.endsACall))
        #expect(ending == Set(DelegateCall.Name.allCases.filter { $0.terminal != nil }).union([.preauthorizeResult]))
        #expect(!ending.contains(.status) && !ending.contains(.sendTrackingData))
    }
}
