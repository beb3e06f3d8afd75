import AccessEnabler
import Foundation
import Testing

/// ``StatusID`` is typed, and code written for the legacy SDK's string ids keeps compiling
/// and meaning the same. Only the public API is used here, as an app would.
@Suite struct APIStatusIDTests {
    let status = AdvancedStatus(errorId: "N130", level: .error, message: "m")

    @Test func aStringLiteralIsTheIdItSpells() {
        #expect(status.errorId == .n130)
        #expect(status.errorId == "N130")
        #expect("N130" == status.errorId)
        #expect(status.errorId != "N000")
        let spelled: String = "N130"
        #expect(status.errorId == spelled)
        #expect(spelled == status.errorId)
        let optional: AdvancedStatus? = status
        #expect(optional?.errorId == "N130")
    }

    @Test func legacySwitchesOverStringLiteralsStillMatch() {
        func reaction(_ id: StatusID?) -> String {
            switch id {
            case "N003": "other provider"
            case "N130": "sign in again"
            case .z100: "denied"
            case let id? where id.cfg5xxStatus != nil: "servers failing"
            default: "other"
            }
        }
        #expect(reaction(status.errorId) == "sign in again")
        #expect(reaction("N003") == "other provider")
        #expect(reaction(.z100) == "denied", "a static member is a pattern too")
        #expect(reaction("CFG503") == "servers failing")
        #expect(reaction(nil) == "other")
    }

    @Test func theLegacySpellingIsTheDescriptionAndTheDictionarysString() {
        #expect("\(status.errorId)" == "N130")
        #expect(status.dictionary["errorId"] as? String == "N130")
        #expect(StatusID.applError.description == "APPL_ERROR")
        #expect(StatusID("CFG503") == .cfg5xx(503))
        #expect(StatusID("APPL_ERROR") == .applError)
    }

    @Test func anIdTheSDKNeverReportsIsKeptAsSpelled() {
        let id = StatusID("SEC420")
        #expect(id == .other("SEC420"))
        #expect(id.description == "SEC420")
        #expect(id.level == .error)
        // Spelling decides equality: an `other` that spells a reported id is that id.
        #expect(StatusID.other("N130") == .n130)
        #expect(Set([StatusID.other("N130"), .n130]).count == 1)
    }
}
