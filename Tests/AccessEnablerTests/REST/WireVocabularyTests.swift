import Foundation
import Testing

@testable import AccessEnabler

/// The wire's open vocabularies: every documented spelling reads as its case and writes
/// back the same; a spelling the SDK does not know survives as `unknown`.
@Suite struct WireVocabularyTests {
    @Test func everyKnownSpellingReadsAsItsCaseAndBack() {
        func roundTrips<V: WireVocabulary>(_: V.Type) -> Bool {
            V.known.allSatisfy { V(rawValue: $0.rawValue) == $0 }
                && Set(V.known.map(\.rawValue)).count == V.known.count
        }
        #expect(roundTrips(ActionName.self))
        #expect(roundTrips(LogoutActionName.self))
        #expect(roundTrips(ActionType.self))
        #expect(roundTrips(ReasonType.self))
        #expect(roundTrips(DecisionSource.self))
        #expect(roundTrips(ErrorAction.self))
    }

    /// `known` is a list kept by hand beside the cases; `rawValue`'s `switch` has no
    /// `default`, so the compiler makes it name every case. This reads that `switch` from the
    /// source and requires `known` to hold every spelling it names: a case added to a
    /// vocabulary but forgotten in `known` (which would then decode as `unknown`) fails here,
    /// and so does a vocabulary file this table does not list.
    @Test func knownListsEveryCaseTheRawValueSwitchNames() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/AccessEnabler/REST/Models/Vocabulary")
        func spellings<V: WireVocabulary>(_: V.Type) -> [String] { V.known.map(\.rawValue) }
        let vocabularies: [String: [String]] = [
            "ActionName": spellings(ActionName.self), "ActionType": spellings(ActionType.self),
            "DecisionSource": spellings(DecisionSource.self), "EnhancedErrorCode": spellings(EnhancedErrorCode.self),
            "ErrorAction": spellings(ErrorAction.self), "LogoutActionName": spellings(LogoutActionName.self),
            "ReasonType": spellings(ReasonType.self),
        ]
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasSuffix(".swift") && $0 != "WireVocabulary.swift"
        }
        #expect(
            Set(files.map { String($0.dropLast(".swift".count)) }) == Set(vocabularies.keys),
            "every vocabulary is checked")
        for (type, known) in vocabularies {
            let source = try String(contentsOf: folder.appendingPathComponent("\(type).swift"), encoding: .utf8)
            let switched = source.matches(of: /case \.\w+: "([^"]*)"/).map { String($0.1) }
            #expect(!switched.isEmpty, "\(type)'s rawValue switch is read")
            #expect(Set(known) == Set(switched), "\(type).known: \(Set(switched).subtracting(known).sorted()) missing")
            #expect(known.count == switched.count, "\(type).known lists each case once")
        }
    }

    @Test func theDocumentedSpellingsAreTheOnesOnTheWire() {
        #expect(ActionName.partnerProfile.rawValue == "partner_profile")
        #expect(LogoutActionName.partnerLogout.rawValue == "partner_logout")
        #expect(ActionType.partnerInteractive.rawValue == "partner_interactive")
        #expect(ActionType.noStep.rawValue == "none")
        #expect(ReasonType.partnerFrameworkStatusFallback.rawValue == "pfs_fallback")
        #expect(ReasonType.missingParametersFallback.rawValue == "missing_parameters_fallback")
        #expect(ReasonType.authenticatedSSO.rawValue == "authenticatedSSO")
        #expect(ErrorAction.applicationRegistration.rawValue == "application-registration")
        #expect(ErrorAction.noRemedy.rawValue == "none")
    }

    @Test func anUnknownSpellingIsKeptAsSent() throws {
        #expect(ActionName(rawValue: "authorise") == .unknown("authorise"))
        #expect(ReasonType(rawValue: "Degraded") == .unknown("Degraded"))
        let json = Data(#"{"actionName":"wait","actionType":"deferred","reasonType":"queue"}"#.utf8)
        let action = try JSONDecoder().decode(SessionAction.self, from: json)
        #expect(action.actionName == .unknown("wait"))
        #expect(action.actionType == .unknown("deferred"))
        #expect(action.reasonType == .unknown("queue"))
        #expect("\(action.actionName)/\(action.actionType)" == "wait/deferred")
    }

    @Test func anEnhancedErrorKeepsItsActionAsTextAndOffersItTyped() throws {
        let json = Data(
            #"{"status":401,"code":"invalid_access_token_service_provider","action":"application-registration"}"#.utf8)
        let error = try JSONDecoder().decode(EnhancedError.self, from: json)
        #expect(error.action == "application-registration")
        #expect(error.remedy == .applicationRegistration)
        #expect(EnhancedError(code: "x").remedy == nil)
        #expect(EnhancedError(code: "x", action: "retry-after").remedy == .unknown("retry-after"))
    }
}
