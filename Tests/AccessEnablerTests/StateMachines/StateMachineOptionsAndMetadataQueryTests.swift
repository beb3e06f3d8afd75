import Foundation
import Testing

@testable import AccessEnabler

/// Parsing the legacy dictionaries: setOptions and getMetadata.
@Suite struct StateMachineOptionsAndMetadataQueryTests {
    @Test func optionsAreReadAndMergedOverThePreviousOnes() {
        let first = SDKOptions(dictionary: [
            "applicationProfile": "p", "visitorID": "v", "handleSVC": true, "device_info": "abc", "unknown": 1,
        ])
        #expect(first.applicationProfile == "p")
        #expect(first.visitorID == "v")
        #expect(first.handleSVC)
        #expect(first.deviceInfo == "abc")
        let second = SDKOptions(dictionary: ["visitorID": "w"], previous: first)
        #expect(second.applicationProfile == "p", "keys not given keep their value")
        #expect(second.visitorID == "w")
        #expect(second.handleSVC)
    }

    @Test func handleSVCAcceptsTheWaysLegacyCodePassesABool() {
        #expect(SDKOptions(dictionary: ["handleSVC": NSNumber(value: true)]).handleSVC)
        #expect(SDKOptions(dictionary: ["handleSVC": 1]).handleSVC)
        #expect(SDKOptions(dictionary: ["handleSVC": "YES"]).handleSVC)
        #expect(SDKOptions(dictionary: ["handleSVC": "true"]).handleSVC)
        #expect(!SDKOptions(dictionary: ["handleSVC": false]).handleSVC)
        #expect(!SDKOptions(dictionary: ["handleSVC": "no"]).handleSVC)
        #expect(
            !SDKOptions(dictionary: ["handleSVC": false], previous: SDKOptions(dictionary: ["handleSVC": true]))
                .handleSVC)
        #expect(!SDKOptions(dictionary: [:]).handleSVC)
    }

    @Test func wrongTypesAreIgnored() {
        let options = SDKOptions(dictionary: ["applicationProfile": 5, "visitorID": ["x"], "device_info": 3])
        #expect(options == SDKOptions())
    }

    @Test func opcodesInEveryNumericForm() {
        let forms: [Any] = [Int(0), Int32(0), Int64(0), UInt(0), NSNumber(value: 0), "0"]
        for form in forms {
            #expect(MetadataQuery(dictionary: [METADATA_OPCODE_KEY: form]) == .authentication, "\(type(of: form))")
        }
        #expect(MetadataQuery(dictionary: [METADATA_OPCODE_KEY: NSNumber(value: METADATA_DEVICE_ID)]) == .deviceID)
        #expect(
            MetadataQuery(dictionary: [METADATA_OPCODE_KEY: 1, METADATA_RESOURCE_ID_KEY: "news"])
                == .authorization(resource: "news"))
        #expect(MetadataQuery(dictionary: [METADATA_OPCODE_KEY: 1]) == .authorization(resource: nil))
        #expect(
            MetadataQuery(dictionary: [METADATA_OPCODE_KEY: Int32(3), METADATA_USER_META_KEY: "zip"])
                == .userMeta(name: "zip"))
    }

    @Test func unknownOrMissingOpcodes() {
        #expect(MetadataQuery(dictionary: [:]) == .unknown(opcode: nil))
        #expect(MetadataQuery(dictionary: [:]).key == -1)
        #expect(MetadataQuery(dictionary: [METADATA_OPCODE_KEY: 9]) == .unknown(opcode: 9))
        #expect(MetadataQuery(dictionary: [METADATA_OPCODE_KEY: 9]).key == 9)
        #expect(
            MetadataQuery(dictionary: [METADATA_OPCODE_KEY: Int.max]) == .unknown(opcode: nil), "out of Int32 range")
        #expect(MetadataQuery(dictionary: [METADATA_OPCODE_KEY: "auth"]) == .unknown(opcode: nil))
    }

    @Test func eachQueryEchoesItsOwnKey() {
        #expect(MetadataQuery.authentication.key == METADATA_AUTHENTICATION)
        #expect(MetadataQuery.authorization(resource: nil).key == METADATA_AUTHORIZATION)
        #expect(MetadataQuery.deviceID.key == METADATA_DEVICE_ID)
        #expect(MetadataQuery.userMeta(name: nil).key == METADATA_USER_META)
    }
}
